import Foundation

/// The paths a sync or fold of the app's `SyncedFolder` just wrote, and when: the
/// change the watcher reads there next is told with origin `.sync` (within a minute).
/// Said from the sync's own queue, read on the main actor.
///
/// `@unchecked Sendable` is safe: `expected` is read and written only with `lock` held.
final class SyncWriteExpectations: @unchecked Sendable {
    private let lock = NSLock()
    private var expected: [String: ContinuousClock.Instant] = [:]

    /// Whether no write is expected (the common case: checked before anything else).
    var isEmpty: Bool { lock.withLock { expected.isEmpty } }

    /// Expects a change of each of `paths`, said at `now`; what was said a minute ago or
    /// more is forgotten.
    func expect(_ paths: [String], at now: ContinuousClock.Instant) {
        lock.withLock {
            expected = expected.filter { now - $0.value < .seconds(60) }
            for path in paths { expected[path] = now }
        }
    }

    /// Whether every one of `paths` (at least one) was expected; they no longer are then.
    func takeIfAllExpected(_ paths: [String]) -> Bool {
        lock.withLock {
            guard !paths.isEmpty, paths.allSatisfy({ expected[$0] != nil }) else { return false }
            for path in paths { expected[path] = nil }
            return true
        }
    }
}
