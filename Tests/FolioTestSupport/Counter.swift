import Foundation

/// A count kept from any thread: for fault hooks, which run on the threads making the calls.
package final class Counter: @unchecked Sendable {
    // @unchecked Sendable is safe: `count` is only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0

    package init() {}

    /// Adds one and returns the new count.
    package func next() -> Int { lock.withLock { count += 1; return count } }

    /// The count.
    package var value: Int { lock.withLock { count } }
}
