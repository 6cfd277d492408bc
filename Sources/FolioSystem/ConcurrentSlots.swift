import Dispatch

/// One slot per index for results computed on many threads at once, as by
/// `DispatchQueue.concurrentPerform`.
///
/// `@unchecked Sendable` is safe: each thread writes only the slot of its own index
/// (distinct indices never alias), and ``values`` is read only after
/// `concurrentPerform` has returned, or the group of ``start(_:_:)`` has been waited
/// for, either of which orders every write before the read.
package final class ConcurrentSlots<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    package init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    package func set(_ index: Int, _ value: Value) { storage[index] = value }

    package var values: [Value?] { Array(storage) }

    /// `transform` applied to each of `count` indices on every core, results in index order.
    /// The caller's fault injection holds on every thread (a task-local value does not
    /// reach Dispatch's threads by itself), so tests can fail calls made on them too.
    package static func map(_ count: Int, _ transform: @Sendable (Int) -> Value) -> [Value] {
        let slots = ConcurrentSlots(count: count)
        let faults = FaultInjection.current
        DispatchQueue.concurrentPerform(iterations: count) { index in
            FaultInjection.$current.withValue(faults) { slots.set(index, transform(index)) }
        }
        return slots.values.map { $0! }
    }

    /// ``map(_:_:)`` started on other threads, returning at once: the caller works on
    /// something else meanwhile (the bookkeeping of the batch before), then waits.
    package static func start(_ count: Int, _ transform: @escaping @Sendable (Int) -> Value) -> Started {
        let slots = ConcurrentSlots(count: count), group = DispatchGroup(), faults = FaultInjection.current
        for index in 0..<count {
            DispatchQueue.global().async(group: group) {
                FaultInjection.$current.withValue(faults) { slots.set(index, transform(index)) }
            }
        }
        return Started(slots: slots, group: group)
    }

    /// Work begun by ``start(_:_:)``.
    package struct Started {
        fileprivate let slots: ConcurrentSlots
        fileprivate let group: DispatchGroup

        /// Whether every index is done (``wait()`` would return at once).
        package var isDone: Bool { group.wait(timeout: .now()) == .success }

        /// The results in index order, once every index is done.
        package func wait() -> [Value] {
            group.wait()
            return slots.values.map { $0! }
        }
    }
}

extension Array where Element: Sendable {
    /// `transform` applied to runs of `run` elements on every core, the results joined in
    /// order: a whole folder's files are worked on in pieces large enough that handing a
    /// piece to a thread costs little beside it (a run of files also shares its folder's
    /// descriptor, see ``FolderPins``).
    package func mapOnEveryCore<Result: Sendable>(inRunsOf run: Int = 256, _ transform: @Sendable (ArraySlice<Element>) -> [Result]) -> [Result] {
        let runs = ConcurrentSlots<[Result]>.map((count + run - 1) / run) { index in
            transform(self[(index * run)..<Swift.min(count, (index + 1) * run)])
        }
        return Array<Result>(runs.joined())
    }
}
