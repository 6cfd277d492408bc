import Dispatch
import FolioSystem

/// When a watcher's batch is read: the pair's and the store's watchers ask here, on
/// their own serial queue and their injected clock (``FollowerClock/isDue(_:armed:on:later:)``,
/// the same "now, or when?" the fold follower's retries ask).
package enum BatchTiming {
    /// Whether `batch` is due now. When it is due later, arms a timer that calls `later`
    /// with its deadline then, and returns false; false too when nothing is marked.
    /// `armed` is the deadline of the timer armed last: one is armed again only when the
    /// batch is due sooner (a file open for writing was closed), so `later` should act
    /// only when handed the deadline still in `armed`; an earlier timer made it stale.
    /// `wholeTree`: the reader reads everything at once (see ``DirtyBatch/due(quiet:longest:wholeTree:)``).
    package static func isDue(
        _ batch: DirtyBatch, options: WatchOptions, queue: DispatchQueue, armed: inout ContinuousClock.Instant?,
        wholeTree: Bool = false, later: @escaping @Sendable (ContinuousClock.Instant) -> Void
    ) -> Bool {
        guard let due = batch.due(quiet: options.quietPeriod, longest: options.longestDelay, wholeTree: wholeTree) else { return false }
        return options.clock.isDue(due, armed: &armed, on: queue, later: later)
    }
}
