import Dispatch

/// The system's time, for the followers of an app and of `folio`: the monotonic clock for
/// quiet periods, the real-time clock for files' times, and Dispatch for what runs later.
package struct SystemFollowerClock: FollowerClock {
    /// The system's time.
    package init() {}

    package var now: ContinuousClock.Instant { .now }

    package var wallNanoseconds: Int64 { Syscall.nanosecondsNow() }

    package func run(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + Self.dispatchInterval(delay), execute: work)
    }

    package func repeating(every interval: Duration, on queue: DispatchQueue, _ tick: @escaping @Sendable () -> Void) -> FollowerTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let every = Self.dispatchInterval(interval)
        timer.schedule(deadline: .now() + every, repeating: every)
        timer.setEventHandler(handler: tick)
        timer.resume()
        let source = TimerSource(timer: timer)
        return FollowerTimer { source.timer.cancel() }
    }

    /// `duration` as Dispatch counts it: at least nothing, at most a day (a Duration that
    /// large is a mistake, not a wish).
    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let seconds = min(max(duration.components.seconds, 0), 86_400)
        let nanoseconds = duration.components.seconds < 0 ? 0 : duration.components.attoseconds / 1_000_000_000
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(nanoseconds))
    }
}

/// A Dispatch timer handed to the closure that cancels it.
///
/// `@unchecked Sendable` is safe: the only use is `cancel()`, which Dispatch documents
/// as callable from any thread, and the reference is never reassigned.
private final class TimerSource: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(timer: any DispatchSourceTimer) { self.timer = timer }
}
