/// A repeating timer a ``FollowerClock`` armed: cancelled, it never ticks again.
package final class FollowerTimer: Sendable {
    private let cancelling: @Sendable () -> Void

    /// A timer that `cancel` stops.
    package init(cancel: @escaping @Sendable () -> Void) { cancelling = cancel }

    /// Stops the timer; a tick under way finishes.
    package func cancel() { cancelling() }
}
