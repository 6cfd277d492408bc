import Foundation
import FolioStore
import FolioSystem
import FolioTestSupport
import Testing
@testable import FolioWatch

/// The watched folder removed and made again at its path (`rm -rf notes; git clone …`,
/// a sync tool recreating it): the watcher follows the new folder, and the store ends
/// as a fresh load of it.
@MainActor
@Suite struct FolderReplacedTests {
    /// Moved away (inotify says so at once) or removed (`rm -rf`: inotify says nothing
    /// while the store's pin holds the folder open; the watcher's look at the path does).
    @Test(arguments: [false, true])
    func theNewFolderAtThePathIsFollowed(removed: Bool) async throws {
        let harness = try await WatchHarness(files: ["notes/a.md": "---\ntitle: A\n---\n", "notes/b.md": "---\ntitle: B\n---\n"])
        defer { harness.finish() }
        #expect(harness.store.state.count == 2)
        let aside = harness.root + ".old"
        if removed {
            try FileManager.default.removeItem(atPath: harness.root)
            // Seen gone before it is made again: the store empties, as a fresh load would.
            #expect(await harness.waitUntil { harness.store.state.count == 0 })
        } else {
            try FileManager.default.moveItem(atPath: harness.root, toPath: aside)
        }
        defer { try? FileManager.default.removeItem(atPath: aside) }
        // The folder made again, with other contents.
        try WatchHarness.write("---\ntitle: C\n---\n", to: harness.root + "/notes/c.md")
        try WatchHarness.write("---\ntitle: A again\n---\n", to: harness.root + "/notes/a.md")
        #expect(await harness.waitUntil { harness.store.state.records.keys.sorted() == ["notes/a.md", "notes/c.md"] })
        #expect(harness.store.state["notes/a.md"]?.title == "A again")
        // Then followed: an edit in the new folder lands, and the store's own write goes there.
        try WatchHarness.write("---\ntitle: C edited\n---\n", to: harness.root + "/notes/c.md")
        #expect(await harness.waitUntil { harness.store.state["notes/c.md"]?.title == "C edited" })
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
        #expect(harness.warningsSeen.contains { $0.contains("a folder is at the watched path again") }, "\(harness.warningsSeen)")
    }
}
