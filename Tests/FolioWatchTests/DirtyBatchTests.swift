import Testing
@testable import FolioWatch

/// The quiet-period rule, with the clock passed in: no sleeps.
@Suite struct DirtyBatchTests {
    let start = ContinuousClock.now

    @Test func dueAfterTheQuietPeriodFromTheLastHint() {
        var batch = DirtyBatch()
        #expect(batch.due(quiet: .milliseconds(50), longest: .seconds(1)) == nil)
        batch.note([.changed("a.md")], at: start)
        batch.note([.changed("b.md")], at: start + .milliseconds(30))
        #expect(batch.due(quiet: .milliseconds(50), longest: .seconds(1)) == start + .milliseconds(80))
        #expect(batch.take() == ["a.md", "b.md"])
        #expect(batch.isEmpty)
    }

    @Test func aBusyFolderIsStillReadAfterTheLongestDelay() {
        var batch = DirtyBatch()
        for step in 0..<100 { batch.note([.changed("log.md")], at: start + .milliseconds(20 * step)) }
        #expect(batch.due(quiet: .milliseconds(50), longest: .seconds(1)) == start + .seconds(1))
    }

    @Test func aRescanReadsTheRootAndWarningsMarkNothing() {
        var batch = DirtyBatch()
        batch.note([.warning("limit")], at: start)
        #expect(batch.isEmpty)
        batch.note([.changed("a.md"), .rescan(reason: "overflow"), .rescan(reason: "later")], at: start)
        #expect(batch.rescanReason == "overflow")
        #expect(batch.take() == [""])
    }

    /// A reader of marked paths reads the closed file now and the open one later; a
    /// whole-tree reader (a pair sync) waits on the open one, until it is closed.
    @Test func aWholeTreeReaderWaitsOnEveryFileOpenForWriting() {
        var batch = DirtyBatch(longestWrite: .seconds(2))
        batch.note([.changed("a.md"), .writing("b.md")], at: start)
        #expect(batch.due(quiet: .milliseconds(50), longest: .seconds(5)) == start + .milliseconds(50))
        #expect(batch.due(quiet: .milliseconds(50), longest: .seconds(5), wholeTree: true) == start + .seconds(2))
        batch.note([.closed("b.md")], at: start + .milliseconds(300))
        #expect(batch.due(quiet: .milliseconds(50), longest: .seconds(5), wholeTree: true) == start + .milliseconds(350))
    }

    /// A record written through a name, then that name removed, moved or replaced, in
    /// this batch or the one before, may have had other names the watcher never read:
    /// everything is read. Made anew and then written, or not a record, it need not.
    @Test func aNameWrittenThroughThenGoneReadsEverything() {
        func rescans(_ hints: [[WatchHint]]) -> Bool {
            var batch = DirtyBatch()
            for (n, step) in hints.enumerated() {
                if n > 0 { _ = batch.take(holdingWrites: false) }
                batch.note(step, at: start)
            }
            return batch.take(holdingWrites: false) == [""]
        }
        #expect(rescans([[.writing("b.md"), .closed("b.md"), .changed("b.md")]]))
        #expect(rescans([[.closed("notes/b.md")], [.changed("notes")]]))
        #expect(rescans([[.writing("b.md")], [.changed("b.md")]]))
        #expect(!rescans([[.changed("b.md"), .writing("b.md"), .closed("b.md")]]))
        #expect(!rescans([[.closed("b.png"), .changed("b.png")]]))
        #expect(!rescans([[.closed("b.md")], [.changed("c.md")], [.changed("b.md")]]))
    }
}
