import Foundation
import FolioStore
import FolioSystem
import FolioTestSupport
import Testing
@testable import FolioWatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written slowly in place (network editors, some tools: four chunks 100 ms
/// apart, the file open all the while) is read once, when its writer closes it: one
/// change, never a half-written body or a transient "front matter is not closed".
/// The watcher runs on a clock the test moves (``ManualClock``): "not read yet" is
/// asserted once the quiet period has passed for the watcher, not after a sleep.
@MainActor
@Suite struct SlowWriterTests {
    /// Options whose clock the test moves, holding a file open for writing ten minutes
    /// at most (far beyond any time the tests move the clock by).
    static func handTimed() -> (WatchOptions, ManualClock) {
        var options = WatchHarness.fastOptions
        let clock = ManualClock()
        options.clock = clock
        options.longestWrite = .seconds(600)
        return (options, clock)
    }

    @Test(arguments: [2, 4])
    func aSlowWriteInPlaceIsReadOnceClosed(chunks: Int) async throws {
        let (options, clock) = Self.handTimed()
        let harness = try await WatchHarness(files: ["notes/a.md": "---\ntitle: A\n---\nold\n"], options: options)
        defer { harness.finish() }
        await harness.drainChanges()
        let before = harness.changeSets.count
        let text = "---\ntitle: Written slowly\ntags: [a, b]\n---\n" + String(repeating: "a line of the body\n", count: 40)
        let bytes = Array(text.utf8)
        let fd = open(harness.root + "/notes/a.md", O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        let size = (bytes.count + chunks - 1) / chunks
        for start in stride(from: 0, to: bytes.count, by: size) {
            let end = min(start + size, bytes.count)
            _ = bytes[start..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            // 100 ms pass for the watcher, five quiet periods: the open file is not read.
            await harness.watcher.caughtUp()
            clock.advance(by: .milliseconds(100))
            await harness.watcher.caughtUp()
            #expect(harness.store.state["notes/a.md"]?.title == "A", "read while still open for writing")
        }
        close(fd)
        await harness.watcher.caughtUp()
        clock.advance(by: .milliseconds(100))
        await harness.watcher.caughtUp()
        #expect(harness.store.state["notes/a.md"]?.title == "Written slowly")
        // A second later, for the watcher, nothing more was read.
        clock.advance(by: .seconds(1))
        await harness.watcher.caughtUp()
        await harness.drainChanges()
        let sets = harness.changeSets[before...].filter { !$0.isEmpty }
        #expect(sets.count == 1, "change sets: \(sets)")
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// The close is read as soon as it is quiet, not when the hold on the open file would
    /// have run out: the hold's timer, armed while the file was open, does not delay it.
    @Test func aFileClosedAfterAPauseIsReadAtItsCloseNotAtTheHoldsBound() async throws {
        let (options, clock) = Self.handTimed()
        let harness = try await WatchHarness(files: ["notes/a.md": "---\ntitle: A\n---\nold\n"], options: options)
        defer { harness.finish() }
        let bytes = Array("---\ntitle: Closed after a pause\n---\nnew\n".utf8)
        let fd = open(harness.root + "/notes/a.md", O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // The watcher reads IN_MODIFY alone and arms the hold's timer; 400 ms pass for it.
        await harness.watcher.caughtUp()
        clock.advance(by: .milliseconds(400))
        await harness.watcher.caughtUp()
        #expect(harness.store.state["notes/a.md"]?.title == "A", "read while still open for writing")
        close(fd)
        // One quiet period (20 ms) and a little: read, ten minutes before the hold's bound.
        await harness.watcher.caughtUp()
        clock.advance(by: .milliseconds(30))
        await harness.watcher.caughtUp()
        #expect(harness.store.state["notes/a.md"]?.title == "Closed after a pause")
    }

    /// A file just created is empty until its writer writes: it is read once closed, so
    /// the store never holds an empty record for it first.
    @Test func aNewFileIsReadOnceItsWriterClosesIt() async throws {
        let (options, clock) = Self.handTimed()
        let harness = try await WatchHarness(files: ["notes/a.md": "---\ntitle: A\n---\n"], options: options)
        defer { harness.finish() }
        await harness.drainChanges()
        let before = harness.changeSets.count
        let fd = open(harness.root + "/notes/b.md", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        await harness.watcher.caughtUp()
        clock.advance(by: .milliseconds(400))
        await harness.watcher.caughtUp()
        #expect(harness.store.state["notes/b.md"] == nil, "read while still open for writing")
        let bytes = Array("---\ntitle: B\n---\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        await harness.watcher.caughtUp()
        clock.advance(by: .milliseconds(30))
        await harness.watcher.caughtUp()
        #expect(harness.store.state["notes/b.md"]?.title == "B")
        await harness.drainChanges()
        #expect(harness.changeSets[before...].filter { !$0.isEmpty }.map(\.added) == [["notes/b.md"]])
    }
}
