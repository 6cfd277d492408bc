import Foundation
import Testing
@testable import Folio
@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
@testable import FolioWatch
import FolioTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pair watcher's timing against a writer: a sync reads both whole trees, so it
/// never copies a file still open for writing, even when another change is due now.
/// The watcher runs on a clock the test moves (``ManualClock``): "not synced yet" is
/// asserted once the time has passed for the watcher, not after a sleep.
@Suite struct PairWatcherTests {
    @Test func aFileStillOpenForWritingIsNotCopiedHalfWritten() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pair-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("laptop").path, b = root.appendingPathComponent("phone").path
        for folder in [a, b] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var sync = SyncOptions()
        sync.stateDirectory = root.appendingPathComponent("state").path
        var watch = WatchOptions()
        watch.quietPeriod = .milliseconds(10)
        watch.rescanInterval = nil
        // Held for ten minutes at most: far beyond the time the test moves the clock by.
        watch.longestWrite = .seconds(600)
        let clock = ManualClock()
        watch.clock = clock
        let watcher = PairWatcher(engine: try SyncEngine(a, b, options: sync), options: watch) { _ in }
        watcher.start()
        defer { watcher.stop() }
        _ = await watcher.firstSync()
        // Created (so empty) and held open; meanwhile another file is written and closed.
        let fd = open(a + "/soup.md", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        try Data("---\ntitle: Bread\n---\n".utf8).write(to: URL(fileURLWithPath: a + "/bread.md"))
        // 400 ms pass for the watcher, forty quiet periods: bread.md is due, soup.md is open.
        watcher.caughtUp()
        clock.advance(by: .milliseconds(400))
        #expect(!FileManager.default.fileExists(atPath: b + "/soup.md"), "copied while still open for writing")
        #expect(!FileManager.default.fileExists(atPath: b + "/bread.md"), "synced while a file was open for writing")
        let bytes = Array("---\ntitle: Soup\n---\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // A quiet period after the close, for the watcher: both synced (the sync runs on
        // the watcher's queue, and the clock returns once what fell due is done).
        // Moved on in steps, for up to ten real seconds: on a loaded machine the close's
        // event can reach the watcher late (the kernel's watch limit reached, a polling
        // watcher stands in on its own timer); every step is far inside the ten-minute hold.
        let deadline = ContinuousClock.now + .seconds(10)
        while FileManager.default.contents(atPath: b + "/soup.md") != Data(bytes) && ContinuousClock.now < deadline {
            watcher.caughtUp()
            clock.advance(by: .milliseconds(20))
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(FileManager.default.contents(atPath: b + "/soup.md") == Data(bytes))
        #expect(FileManager.default.contents(atPath: b + "/bread.md") == Data("---\ntitle: Bread\n---\n".utf8))
    }
}
