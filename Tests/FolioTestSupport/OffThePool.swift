import Foundation

/// Runs `work`, which blocks (a subprocess waited for, a file polled), on a thread of
/// its own and waits for it without holding a thread of Swift's cooperative pool. That
/// pool is as wide as the machine has cores (two here): a test that blocks one of them
/// for minutes (a harness of real Syncthing devices) left every other async test —
/// the main actor's among them — to share what was left, and they stalled for minutes.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            do { done.resume(returning: try work()) } catch { done.resume(throwing: error) }
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
}
