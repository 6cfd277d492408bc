import Foundation

/// A message said once while it lasts: a failure retried every few seconds is printed
/// when it starts or changes, not at every try.
///
/// `@unchecked Sendable` is safe: `last` is read and written only under `lock`.
final class SaidOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var last: String?

    /// Whether `message` differs from the one said last (and it is now the last).
    func isNew(_ message: String) -> Bool {
        lock.withLock {
            defer { last = message }
            return last != message
        }
    }

    /// Forgets the last message: the failure is over.
    func reset() { lock.withLock { last = nil } }
}
