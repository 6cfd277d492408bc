import Dispatch

/// The time the followers run on — the store's ``FolderWatcher``, the pair's watcher and
/// the fold follower — injected through their options: the system's
/// (``SystemFollowerClock``) in an app, one that moves only when a test moves it in the
/// tests, so that a test advances time rather than sleeping, and a "not read yet" is
/// asserted after the quiet period has truly passed for the follower, however slow the
/// machine.
package protocol FollowerClock: Sendable {
    /// Now: what quiet periods, deadlines and retries are measured from.
    var now: ContinuousClock.Instant { get }
    /// Now on the wall clock, in nanoseconds since 1970: what a file's change time is
    /// compared with ("left alone for the quiet period").
    var wallNanoseconds: Int64 { get }
    /// Runs `work` on `queue` once `delay` has passed (at once for none or less).
    func run(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
    /// Runs `tick` on `queue` every `interval`, the first time `interval` from now,
    /// until the timer returned is cancelled.
    func repeating(every interval: Duration, on queue: DispatchQueue, _ tick: @escaping @Sendable () -> Void) -> FollowerTimer
}

extension FollowerClock {
    /// How long from now until `instant` (negative when it is past).
    package func duration(until instant: ContinuousClock.Instant) -> Duration { now.duration(to: instant) }

    /// Whether the deadline `due` has come. When it is later, arms a timer on `queue`
    /// that calls `later` with it — unless one armed before comes as soon (its deadline
    /// is in `armed`) — and returns false. `later` should act only when handed the
    /// deadline still in `armed`: an earlier timer armed since made it stale.
    /// Every follower's "now, or when?" goes through here, so that all of them wait
    /// alike and on the clock injected.
    package func isDue(
        _ due: ContinuousClock.Instant, armed: inout ContinuousClock.Instant?, on queue: DispatchQueue,
        later: @escaping @Sendable (ContinuousClock.Instant) -> Void
    ) -> Bool {
        if let armed, armed <= due { return false }
        let wait = duration(until: due)
        guard wait > .zero else {
            armed = nil
            return true
        }
        armed = due
        run(after: wait, on: queue) { later(due) }
        return false
    }
}
