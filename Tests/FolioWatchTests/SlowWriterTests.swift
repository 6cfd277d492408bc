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
@MainActor
@Suite struct SlowWriterTests {
    @Test(arguments: [2, 4])
    func aSlowWriteInPlaceIsReadOnceClosed(chunks: Int) async throws {
        var options = WatchHarness.fastOptions
        // Ten minutes: a main actor kept busy by other suites can stretch four 100 ms
        // pauses past the default two seconds, and the write would be read half done.
        options.longestWrite = .seconds(600)
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
            try await Task.sleep(for: .milliseconds(100))
        }
        close(fd)
        #expect(await harness.waitUntil { harness.store.state["notes/a.md"]?.title == "Written slowly" })
        try await Task.sleep(for: .milliseconds(150))
        await harness.drainChanges()
        let sets = harness.changeSets[before...].filter { !$0.isEmpty }
        #expect(sets.count == 1, "change sets: \(sets)")
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// The close is read as soon as it is quiet, not when the hold on the open file would
    /// have run out: the hold's timer, armed while the file was open, does not delay it.
    /// (The hold is made ten minutes here, so that a slow machine cannot blur the two.)
    @Test func aFileClosedAfterAPauseIsReadAtItsCloseNotAtTheHoldsBound() async throws {
        var options = WatchHarness.fastOptions
        options.longestWrite = .seconds(600)
        let harness = try await WatchHarness(files: ["notes/a.md": "---\ntitle: A\n---\nold\n"], options: options)
        defer { harness.finish() }
        let bytes = Array("---\ntitle: Closed after a pause\n---\nnew\n".utf8)
        let fd = open(harness.root + "/notes/a.md", O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // Long enough for the watcher to read IN_MODIFY alone and arm the hold's timer.
        try await Task.sleep(for: .milliseconds(400))
        #expect(harness.store.state["notes/a.md"]?.title == "A", "read while still open for writing")
        close(fd)
        #expect(await harness.waitUntil { harness.store.state["notes/a.md"]?.title == "Closed after a pause" })
    }

    /// A file just created is empty until its writer writes: it is read once closed, so
    /// the store never holds an empty record for it first.
    @Test func aNewFileIsReadOnceItsWriterClosesIt() async throws {
        var options = WatchHarness.fastOptions
        // Ten minutes: a machine busy with other suites cannot run the hold out.
        options.longestWrite = .seconds(600)
        let harness = try await WatchHarness(files: ["notes/a.md": "---\ntitle: A\n---\n"], options: options)
        defer { harness.finish() }
        await harness.drainChanges()
        let before = harness.changeSets.count
        let fd = open(harness.root + "/notes/b.md", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        try await Task.sleep(for: .milliseconds(400))
        #expect(harness.store.state["notes/b.md"] == nil, "read while still open for writing")
        let bytes = Array("---\ntitle: B\n---\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(await harness.waitUntil { harness.store.state["notes/b.md"]?.title == "B" })
        await harness.drainChanges()
        #expect(harness.changeSets[before...].filter { !$0.isEmpty }.map(\.added) == [["notes/b.md"]])
    }
}
