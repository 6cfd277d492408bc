import Foundation
import Testing
@testable import FolioStore
@testable import FolioSync
@testable import Folio
@testable import FolioWatch

/// A change set says where it came from: the app, a sync of its folder, or the disk.
@MainActor @Suite struct ChangeOriginTests {
    @Test func aSyncsWritesAreToldAsTheSyncsAndAnEditorsAsTheDisks() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-origin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes").path, replica = root.appendingPathComponent("usb").path
        try SyncedFolderTests.write("---\ntitle: Milk\n---\n", to: folder + "/todos/milk.md")
        try FileManager.default.createDirectory(atPath: replica, withIntermediateDirectories: true)
        var sync = SyncOptions()
        sync.stateDirectory = root.appendingPathComponent("state").path
        var watch = SyncedFolderTests.fastOptions
        // Long quiet periods: only settle() brings changes in, in a known order.
        watch.quietPeriod = .seconds(30)
        watch.longestDelay = .seconds(60)
        let opened = try await SyncedFolder.open(folder, replica: replica, watchOptions: watch, syncOptions: sync)
        defer { opened.close() }
        _ = await opened.firstSync()
        await opened.settle()
        var changes = opened.store.changes().makeAsyncIterator()

        try SyncedFolderTests.write("---\ntitle: Butter\n---\n", to: replica + "/todos/butter.md")
        await opened.settle()
        let synced = await changes.next()
        #expect(synced?.added == ["todos/butter.md"] && synced?.origin == .sync)

        try SyncedFolderTests.write("---\ntitle: Bread\n---\n", to: folder + "/todos/bread.md")
        await opened.settle()
        let edited = await changes.next()
        #expect(edited?.added == ["todos/bread.md"] && edited?.origin == .disk)

        let own = await opened.store.dispatch(.toggleDone(path: "todos/milk.md"))
        #expect(own.changes.origin == .action)
    }
}
