import Foundation

/// Which of the store's own writes began when: a number per write, readable from any
/// thread, so that a watcher can say how far the store's writes had got when it began
/// reading the disk. A snapshot read before a write began, and applied after it ended,
/// would undo it for a moment (``Store/apply(_:)`` reads such a path again instead).
///
/// `@unchecked Sendable` is safe: `count` and `lastWrite` are read and written only
/// while `lock` is held.
public final class WriteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var lastWrite: [String: Int] = [:]

    /// How many writes have begun so far: what a reader notes before it reads.
    public var mark: Int { lock.withLock { count } }

    /// Notes that writes to `paths` begin now.
    func begin(_ paths: [String]) {
        lock.withLock {
            for path in paths {
                count += 1
                lastWrite[path] = count
            }
        }
    }

    /// Whether a write to `path` began after `mark`.
    func wrote(_ path: String, after mark: Int) -> Bool {
        lock.withLock { (lastWrite[path] ?? 0) > mark }
    }
}
