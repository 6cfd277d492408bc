import Foundation
import Testing
@testable import FolioStore
import FolioSystem
import FolioTestSupport

/// A snapshot the watcher read before the store's own write began, applied after the
/// write ended, must not undo the write (nor tell observers twice): the path is read
/// again instead.
@MainActor
@Suite struct OwnWriteRaceTests {
    @Test func aSnapshotFromBeforeTheStoresWriteDoesNotUndoIt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-race-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/todos", withIntermediateDirectories: true)
        try Data("---\ntitle: Milk\ndone: false\n---\n".utf8).write(to: URL(fileURLWithPath: root + "/todos/milk.md"))
        let store = try await Store.load(root, removedFiles: nil)
        // The watcher notes the mark and reads the file as it was...
        let stale = DiskSnapshot.read(["todos/milk.md"], under: store.folder, notingWrites: store.writes)
        // ...the store writes it meanwhile...
        _ = await store.dispatch(.toggleDone(path: "todos/milk.md"))
        #expect(store.state["todos/milk.md"]?.done == true)
        // ...and the stale read is applied after the write ended; the path it found stale
        // is read again (here waited for, where the watcher's apply goes on at once).
        let changes = await store.apply(stale, waitingForRereads: true)
        // Nothing for observers: the write is not undone, so not redone either.
        #expect(changes.isEmpty)
        // Read again from the disk, which holds the store's write: nothing changes.
        #expect(store.state["todos/milk.md"]?.done == true)
    }
}
