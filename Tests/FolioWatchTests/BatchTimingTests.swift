import Dispatch
import Foundation
import Testing
@testable import FolioWatch

/// When a batch is read: a timer armed for a file still open for writing (due at the
/// hold's bound) must not delay the batch once the file is closed and due sooner.
@Suite struct BatchTimingTests {
    @Test func aFileClosedWhileItsHoldIsArmedIsReadAfterTheQuietPeriodNotTheHold() throws {
        let queue = DispatchQueue(label: "batch-timing-test")
        let options = WatchOptions()
        let fired = FiredDeadlines()
        var batch = DirtyBatch()
        var armed: ContinuousClock.Instant?
        let opened = ContinuousClock.now
        batch.note([.writing("a.md")], at: opened)
        #expect(!BatchTiming.isDue(batch, options: options, queue: queue, armed: &armed, later: fired.add))
        let hold = try #require(armed)
        #expect(hold == opened + batch.longestWrite)

        let closed = ContinuousClock.now
        batch.note([.closed("a.md")], at: closed)
        #expect(!BatchTiming.isDue(batch, options: options, queue: queue, armed: &armed, later: fired.add))
        let sooner = try #require(armed)
        #expect(sooner == closed + options.quietPeriod, "armed at \(sooner), the hold was \(hold)")
        // The sooner timer fires, handing the deadline the caller now holds as armed.
        #expect(fired.wait(for: sooner, within: .seconds(10)))

        // Nothing sooner: no new timer, the one armed stands.
        batch.note([.changed("b.md")], at: closed)
        #expect(!BatchTiming.isDue(batch, options: options, queue: queue, armed: &armed, later: fired.add))
        #expect(armed == sooner)
    }

    @Test func aBatchDueNowLeavesNoTimerArmed() {
        let queue = DispatchQueue(label: "batch-timing-test")
        var batch = DirtyBatch()
        var armed: ContinuousClock.Instant? = ContinuousClock.now + .seconds(5)
        batch.note([.changed("a.md")], at: ContinuousClock.now - .seconds(1))
        #expect(BatchTiming.isDue(batch, options: WatchOptions(), queue: queue, armed: &armed, later: { _ in }))
        #expect(armed == nil)
    }
}

/// The deadlines timers fired with, waited on with a bound.
///
/// `@unchecked Sendable` is safe: `deadlines` is read and written only under `lock`.
private final class FiredDeadlines: @unchecked Sendable {
    private let lock = NSLock()
    private var deadlines: [ContinuousClock.Instant] = []

    var add: @Sendable (ContinuousClock.Instant) -> Void { { deadline in self.lock.withLock { self.deadlines.append(deadline) } } }

    func wait(for deadline: ContinuousClock.Instant, within bound: Duration) -> Bool {
        let end = ContinuousClock.now + bound
        while ContinuousClock.now < end {
            if lock.withLock({ deadlines.contains(deadline) }) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
