import Dispatch

/// The timing both watchers share, used on their own serial queue: a repeating timer
/// for periodic rescans, and "is the batch due now, or when?".
package enum BatchTiming {
    /// A timer on `queue` calling `tick` every `interval`.
    package static func repeating(every interval: Duration, on queue: DispatchQueue, _ tick: @escaping @Sendable () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler(handler: tick)
        timer.resume()
        return timer
    }

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
        if let armed, armed <= due { return false }
        let wait = ContinuousClock.now.duration(to: due)
        guard wait > .zero else {
            armed = nil
            return true
        }
        armed = due
        once(after: wait, on: queue) { later(due) }
        return false
    }

    /// Calls `work` on `queue` once, `wait` from now.
    package static func once(after wait: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        // At most a day: a Duration that large is a mistake, not a wish.
        let nanoseconds = Int(clamping: min(max(wait.components.seconds, 0), 86_400)) * 1_000_000_000 + Int(max(wait.components.attoseconds, 0) / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
    }
}
