@testable import Folio
@testable import FolioShared
@testable import FolioStore
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
@testable import FolioWatch
import Foundation
import Testing

/// A change set says where it came from: the app, a sync of its folder, or the disk.
@MainActor @Suite struct ChangeOriginTests {
    @Test func aSyncsWritesAreToldAsTheSyncsAndAnEditorsAsTheDisks() async throws {
        // Only settle() brings changes in, in a known order.
        let (opened, folder, replica, root) = try await SyncedFolderTests.openWithReplica(
            ["todos/milk.md": "---\ntitle: Milk\n---\n"], watch: SyncedFolderTests.settleOnlyOptions)
        defer { try? FileManager.default.removeItem(at: root) }
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
