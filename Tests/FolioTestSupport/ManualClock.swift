import Dispatch
import Foundation
import FolioSystem

/// A ``FollowerClock`` that moves only when a test moves it (``advance(by:)``): a
/// follower's quiet periods, holds and retries then pass when the test says, however
/// slow the machine, so "not read yet" is asserted after the time has truly passed for
/// the follower rather than after a sleep that may or may not have been long enough.
/// Its wall clock starts at the real one (files' times are real) and moves with it.
///
/// `@unchecked Sendable` is safe: every stored property but the constants is read and
/// written with `lock` held.
package final class ManualClock: FollowerClock, @unchecked Sendable {
    private struct Scheduled {
        var due: Duration
        var order: Int
        var queue: DispatchQueue
        var work: @Sendable () -> Void
        /// Set for a repeating timer: due again this long after each tick.
        var every: Duration?
        var timer: Int
    }

    private let lock = NSLock()
    private let start = ContinuousClock.now
    private var wallStart = Syscall.nanosecondsNow()
    private var elapsed: Duration = .zero
    private var scheduled: [Scheduled] = []
    private var made = 0

    /// A clock standing at the real time now.
    package init() {}

    package var now: ContinuousClock.Instant { lock.withLock { start + elapsed } }

    package var wallNanoseconds: Int64 {
        lock.withLock { wallStart + elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000 }
    }

    package func run(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        lock.withLock { _ = add(after: delay, queue: queue, work: work, every: nil) }
    }

    package func repeating(every interval: Duration, on queue: DispatchQueue, _ tick: @escaping @Sendable () -> Void) -> FollowerTimer {
        let timer = lock.withLock { add(after: interval, queue: queue, work: tick, every: interval) }
        return FollowerTimer { [weak self] in
            guard let self else { return }
            lock.withLock { scheduled.removeAll { $0.timer == timer } }
        }
    }

    /// Moves the wall clock (only) on to the real one, if that is ahead: a file written
    /// now is then written at or before the clock's now, however long the test took to
    /// get here (a busy machine), and ``advance(by:)`` leaves it that long alone.
    package func catchUpWithTheWall() {
        lock.withLock {
            let elapsedNanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            wallStart = max(wallStart, Syscall.nanosecondsNow() - elapsedNanoseconds)
        }
    }

    /// How many pieces of work wait for their time (repeating timers among them).
    package var waiting: Int { lock.withLock { scheduled.count } }

    /// Moves time on by `duration`, running what falls due on the way, in the order it
    /// falls due, each on its queue and waited for (what that schedules within the span
    /// runs too), with ``now`` standing at each one's time while it runs.
    package func advance(by duration: Duration) {
        let target = lock.withLock { elapsed + duration }
        // The faults a test put in force for its task hold for what runs in its time too.
        let faults = FaultInjection.current
        while let next = takeNext(dueBy: target) {
            next.queue.sync { FaultInjection.$current.withValue(faults) { next.work() } }
        }
        lock.withLock { elapsed = max(elapsed, target) }
    }

    private func takeNext(dueBy target: Duration) -> Scheduled? {
        lock.withLock {
            guard let index = scheduled.indices.filter({ scheduled[$0].due <= target })
                .min(by: { (scheduled[$0].due, scheduled[$0].order) < (scheduled[$1].due, scheduled[$1].order) }) else { return nil }
            let next = scheduled[index]
            elapsed = max(elapsed, next.due)
            if let every = next.every {
                made += 1
                scheduled[index].due = next.due + max(every, .nanoseconds(1))
                scheduled[index].order = made
            } else {
                scheduled.remove(at: index)
            }
            return next
        }
    }

    /// Adds work due `delay` from now; returns its timer's number. Runs with `lock` held.
    private func add(after delay: Duration, queue: DispatchQueue, work: @escaping @Sendable () -> Void, every: Duration?) -> Int {
        made += 1
        scheduled.append(Scheduled(due: elapsed + max(delay, .zero), order: made, queue: queue, work: work, every: every, timer: made))
        return made
    }
}

/// Moves `clock` on by `duration` off the cooperative pool: what falls due may run for
/// a while (a git pass), and a test must not hold one of the pool's threads meanwhile.
package func advance(_ clock: ManualClock, by duration: Duration) async {
    _ = try? await offThePool { clock.advance(by: duration) }
}
