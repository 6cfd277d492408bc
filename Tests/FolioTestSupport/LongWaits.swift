/// The suite's waits for something to happen (a watcher's batch, a line of output, a
/// file a sync writes), measured: each one over ``noted`` prints a note naming where it
/// waited and how long, so that a slow wait is seen, not hidden — the suite's longest
/// wait is the longest note (none: none over two seconds), and one over ``bound`` is a
/// main actor or a cooperative pool held up by another test.
package enum LongWaits {
    /// Waits longer than this are noted.
    package static let noted: Duration = .seconds(2)
    /// What no wait should take.
    package static let bound: Duration = .seconds(5)

    /// Notes the wait that began at `start`, if it took over ``noted``.
    package static func note(since start: ContinuousClock.Instant, _ what: String, file: String = #fileID, line: Int = #line) {
        let waited = ContinuousClock.now - start
        guard waited > noted else { return }
        print("note: \(file):\(line): waited \(waited) for \(what)\(waited > bound ? " (over the \(bound) bound)" : "")")
    }
}
