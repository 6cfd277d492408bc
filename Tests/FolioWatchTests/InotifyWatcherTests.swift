#if canImport(Glibc)
import Foundation
import Testing
@testable import FolioSystem
import FolioTestSupport
@testable import FolioWatch

/// The inotify watcher's event handling, fed events directly, and its fallback when
/// the watch limit is reached (an injected `ENOSPC`).
@Suite struct InotifyWatcherTests {
    func folder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-inotify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/recipes/soups", withIntermediateDirectories: true)
        return root
    }

    @Test func anOverflowAsksForARescanAndUnknownWatchesSayNothing() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = InotifyWatcher(root: root) { _ in }
        try watcher.start()
        defer { watcher.stop() }
        let hints = watcher.hints(for: [
            InotifyEvent(watch: -1, mask: Inotify.queueOverflow), InotifyEvent(watch: 9_999, mask: Inotify.created, name: "x.md"),
        ])
        #expect(hints == [.rescan(reason: "the inotify event queue overflowed (fs.inotify.max_queued_events)")])
    }

    @Test func foldersAreWatchedAsTheyComeAndGo() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let received = WarningBox()
        let watcher = InotifyWatcher(root: root) { hints in for hint in hints { received.append("\(hint)") } }
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.watchCount == 3)
        try FileManager.default.createDirectory(atPath: root + "/todos/2026/11", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/todos/2026/11/a.md"))
        watcher.drain()
        #expect(watcher.watchCount == 6)
        #expect(received.all.contains("changed(\"todos\")"))
        try FileManager.default.removeItem(atPath: root + "/todos")
        watcher.drain()
        #expect(watcher.watchCount == 3)
    }

    @Test func theWatchLimitFallsBackToPollingWithAWarning() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let received = WarningBox()
        let faults = FaultInjection { operation, path in
            operation == .watch && path.hasSuffix("/recipes/soups") ? Inotify.watchLimitReached : nil
        }
        let watcher = InotifyWatcher(root: root, pollingInterval: .milliseconds(10), faults: faults) { hints in
            for hint in hints { received.append("\(hint)") }
        }
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.watchCount == 2)
        #expect(received.all.contains { $0.contains("fs.inotify.max_user_watches") && $0.contains("recipes/soups") && $0.contains("sysctl") })
        // A change in the unwatched folder is still seen, by polling.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/recipes/soups/leek.md"))
        watcher.drain()
        #expect(received.all.contains("changed(\"recipes/soups/leek.md\")"))
    }
}
#endif
