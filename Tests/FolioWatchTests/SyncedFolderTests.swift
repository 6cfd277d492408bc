import Foundation
import Testing
@testable import FolioStore
@testable import FolioSync
@testable import FolioWatch

/// The library API: a folder with a replica, as one store.
@MainActor
@Suite struct SyncedFolderTests {
    @Test func anEditInTheReplicaReachesTheStoreAndAStoreActionReachesTheReplica() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-synced-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes").path, replica = root.appendingPathComponent("usb").path
        try WatchHarness.write("---\ntitle: Milk\ndone: false\n---\n", to: folder + "/todos/milk.md")
        try FileManager.default.createDirectory(atPath: replica, withIntermediateDirectories: true)
        var sync = SyncOptions()
        sync.stateDirectory = root.appendingPathComponent("state").path
        var watch = WatchHarness.fastOptions
        watch.quietPeriod = .milliseconds(10)
        let opened = try await SyncedFolder.open(folder, replica: replica, watchOptions: watch, syncOptions: sync)
        defer { opened.close() }
        func waitFor(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<1_000 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
            return condition()
        }
        // The first sync copies the folder to the replica.
        #expect(await waitFor { FileManager.default.fileExists(atPath: replica + "/todos/milk.md") })
        // Someone edits the replica: the sync brings it into the folder, the watcher into the store.
        try Data("---\ntitle: Oat milk\ndone: false\n---\n".utf8).write(to: URL(fileURLWithPath: replica + "/todos/milk.md"), options: .atomic)
        #expect(await waitFor { opened.store.state["todos/milk.md"]?.title == "Oat milk" })
        // An action in the app reaches the replica.
        #expect(opened.store.dispatch(.toggleDone(path: "todos/milk.md")).isEmpty)
        #expect(await waitFor {
            (try? String(contentsOfFile: replica + "/todos/milk.md", encoding: .utf8)) == "---\ntitle: Oat milk\ndone: true\n---\n"
        })
    }
}
