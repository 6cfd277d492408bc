import Foundation
import FolioSystem

/// Who hears of the store's own writes the moment they are on disk, with the bytes
/// written, on the store's disk queue: a history that records them then has each
/// version however soon the next edit comes (reading the file later could find the next
/// one already).
///
/// `@unchecked Sendable` is safe: `handlers` is read and written only while `lock` is held.
package final class OwnWrites: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [@Sendable ([FileRead]) -> Void] = []

    /// Tells `handler` of every later write (in the order they were made).
    package func observe(_ handler: @escaping @Sendable ([FileRead]) -> Void) {
        lock.withLock { handlers.append(handler) }
    }

    /// Tells the handlers that `writes` are on disk; `writes` is not worked out (a stat
    /// per file) while no one listens, as for a store without a shared folder.
    func tell(_ writes: @autoclosure () -> [FileRead]) {
        let handlers = lock.withLock { self.handlers }
        guard !handlers.isEmpty else { return }
        let writes = writes()
        guard !writes.isEmpty else { return }
        for handler in handlers { handler(writes) }
    }
}
