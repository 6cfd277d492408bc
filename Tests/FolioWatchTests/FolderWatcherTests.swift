import FolioTestSupport
import Foundation
import Testing
@testable import FolioStore
@testable import FolioWatch

/// What the folder watcher does beyond reading batches.
@MainActor
@Suite struct FolderWatcherTests {
    /// Edits that bring files back to what they held leave dead entries in the index
    /// (too few for the index to compact on its own); once the folder is quiet, the
    /// watcher has the store drop them, so a watcher running for weeks holds what a fresh
    /// load of the folder holds. Fails when the watcher never tidies (`tidyAfter = nil`).
    @Test func aQuietFolderLeavesTheStoreHoldingWhatAFreshLoadHolds() async throws {
        let files = Dictionary(uniqueKeysWithValues: (0..<40).map { n in
            ("recipes/r\(n).md", "---\ntitle: R\(n)\ntags: [t\(n % 3)]\n---\nuova pepe sale \(n)\n")
        })
        var options = WatchHarness.fastOptions
        options.tidyAfter = .milliseconds(200)
        // On a clock the test moves: the folder stays "busy" for the watcher until the
        // test lets the 200 ms pass (on a slow machine they passed before the first look).
        let clock = ManualClock()
        options.clock = clock
        let harness = try await WatchHarness(files: files, options: options)
        defer { harness.finish() }
        let fresh = harness.store.state.index.entryCount
        for round in 0..<2 {
            for (path, text) in files.sorted(by: { $0.key < $1.key }).prefix(30) {
                try WatchHarness.write(round == 0 ? text + "soak alpha \(path)\n" : text, to: harness.root + "/" + path)
            }
            await harness.watcher.settle()
        }
        #expect(harness.store.state.index.deadCount > 0, "the edits left no dead entries: the test would pass without tidying")
        // The quiet period passes for the watcher (a batch the writes left may be read on the
        // way, which arms the tidy again: moved on until it is done, a few times at most).
        for _ in 0..<10 where harness.store.state.index.deadCount > 0 {
            await harness.watcher.caughtUp()
            clock.advance(by: .milliseconds(300))
            await harness.watcher.caughtUp()
            _ = await harness.waitUntil(timeout: .seconds(1)) { harness.store.state.index.deadCount == 0 }
        }
        let tidied = harness.store.state.index.deadCount == 0
        #expect(tidied, "still \(harness.store.state.index.deadCount) dead entries after the folder was quiet")
        #expect(harness.store.state.index.entryCount == fresh)
        harness.store.state._checkInvariants()
        #expect(try harness.store.query("soak").isEmpty)
        #expect(try harness.store.query("tag:t1").count == 13)
    }
}
