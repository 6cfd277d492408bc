import FolioTestSupport
import Foundation
import Testing
@testable import FolioStore
@testable import FolioWatch

/// The store's own writes, read back by the watcher, are not news; an outside edit
/// that lands between the store's read and its write is kept.
@MainActor
@Suite struct OwnWriteTests {
    static let path = "todos/milk.md"

    @Test func ownWritesAreRecognisedByContent() async throws {
        let harness = try await WatchHarness(files: [Self.path: "---\ntitle: Milk\ndone: false\n---\n"])
        defer { harness.finish() }
        let seen = SeenPaths()
        harness.watcher.observeBatches { seen.insert($0) }
        #expect(await harness.store.dispatch(.toggleDone(path: Self.path)).succeeded)
        await harness.drainChanges()
        let announced = harness.changeSets
        #expect(announced == [ChangeSet(updated: [Self.path], origin: .action, changedFields: [Self.path: ["done"]])])
        // The watcher must really read the write back (else this test would pass on a
        // watcher that saw nothing); wait until a batch holding the path was read.
        var readBack = false
        let started = ContinuousClock.now
        defer { LongWaits.note(since: started, "the watcher to read the store's write back") }
        for _ in 0..<500 where !readBack {
            await harness.watcher.settle()
            readBack = seen.contains(Self.path)
            if !readBack { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(readBack, "the watcher never read the store's write back")
        await harness.watcher.settle()
        await harness.drainChanges()
        #expect(harness.changeSets == announced, "the store's own write came back as news")
        #expect(harness.storeText(Self.path) == "---\ntitle: Milk\ndone: true\n---\n")
    }

    @Test func anOutsideEditBeforeTheStoresWriteIsKept() async throws {
        // A long quiet period, so that the store cannot have heard of the edit before it writes.
        var options = WatchHarness.fastOptions
        (options.quietPeriod, options.longestDelay) = (.seconds(30), .seconds(60))
        let harness = try await WatchHarness(files: [Self.path: "---\ntitle: Milk\ndone: false\n---\n"], options: options)
        defer { harness.finish() }
        // Someone saves before the watcher has told the store; then the app ticks the todo.
        let theirs = "---\ntitle: Oat milk\ndone: false\n---\n"
        try WatchHarness.write(theirs, to: harness.root + "/" + Self.path)
        let errors = await harness.store.dispatch(.toggleDone(path: Self.path)).errors
        #expect(errors.map(\.kind) == [.changedOnDisk])
        #expect(try String(contentsOfFile: harness.root + "/" + Self.path, encoding: .utf8) == theirs)
        await harness.watcher.settle()
        #expect(harness.storeText(Self.path) == theirs)
    }

    @Test func aPollingWatcherFollowsTheFolderToo() async throws {
        var options = WatchHarness.fastOptions
        options.backend = .polling(interval: .milliseconds(10))
        let harness = try await WatchHarness(files: [Self.path: "---\ntitle: Milk\n---\n"], options: options)
        defer { harness.finish() }
        try WatchHarness.write("---\ntitle: Bread\n---\n", to: harness.root + "/todos/bread.md")
        try FileManager.default.removeItem(atPath: harness.root + "/" + Self.path)
        let seen = await harness.waitUntil { harness.store.state.records.keys.sorted() == ["todos/bread.md"] }
        #expect(seen)
    }
}

/// The paths of the batches a watcher read, collected from its queue.
final class SeenPaths: @unchecked Sendable {
    // @unchecked Sendable is safe: `paths` is only touched while holding `lock`.
    private let lock = NSLock()
    private var paths: Set<String> = []
    func insert(_ batch: Set<String>) { lock.withLock { paths.formUnion(batch) } }
    func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
}
