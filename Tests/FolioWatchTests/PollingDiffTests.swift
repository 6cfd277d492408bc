import FolioSystem
import Testing
@testable import FolioWatch

/// The poller's diff: a change is reported at the scan that sees it and at the next,
/// so that a store that read the path mid-flip reads it once more.
@Suite struct PollingDiffTests {
    static let stamp = FileStamp(size: 3, modified: 1, changed: 1, inode: 7, type: .regular, permissions: 0o644)

    @Test func aFolderMovedOutAndBackIsReadAgainAfterTheFlip() {
        let present = ["notes/a.md": Self.stamp]
        // Scan 1 saw it gone (reported); the store read it when it was back; scan 2 sees it gone again.
        #expect(PollingWatcher.changedPaths(now: [:], last: [:], before: present) == ["notes/a.md"])
        // Scan 3, still gone: quiet.
        #expect(PollingWatcher.changedPaths(now: [:], last: [:], before: [:]).isEmpty)
        // Back at scan 4: reported at 4 and again at 5.
        #expect(PollingWatcher.changedPaths(now: present, last: [:], before: [:]) == ["notes/a.md"])
        #expect(PollingWatcher.changedPaths(now: present, last: present, before: [:]) == ["notes/a.md"])
        #expect(PollingWatcher.changedPaths(now: present, last: present, before: present).isEmpty)
    }

    /// A file made and gone between two scans is in neither, but the store may have
    /// read it (a folder read whole meanwhile): the next scan reports it, once.
    @Test func aFileTheReaderFoundAndNoScanSawIsReported() {
        let present = ["notes/a.md": Self.stamp]
        #expect(PollingWatcher.changedPaths(now: present, last: present, before: present, foundByReader: ["notes/b.md", "notes/a.md"]) == ["notes/b.md"])
        #expect(PollingWatcher.changedPaths(now: present, last: present, before: present, foundByReader: []).isEmpty)
    }
}
