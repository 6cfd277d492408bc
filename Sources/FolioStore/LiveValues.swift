import FolioModel
import Observation

/// A live query of one record type: the records of `R`'s kind that match, as values of
/// `R`, kept current with the store (``Store/liveQuery(_:_:)``). A view that shows
/// `values` is redrawn when, and only when, they change.
///
/// A record of the kind that does not read as `R` (a value that does not decode) is not
/// dropped in silence: its path is in ``unreadable`` (``RecordType/problems(in:)`` says why).
@MainActor
@Observable
public final class LiveValues<R: RecordType> {
    /// The rows that read as `R`, in the query's order.
    public private(set) var values: [R] = []
    /// The path of each of ``values``, in the same order.
    public private(set) var paths: [String] = []
    /// The records of the kind that match but do not read as `R`.
    public private(set) var unreadable: [String] = []
    /// The live query underneath (its ``LiveQuery/query`` and records).
    @ObservationIgnored public let live: LiveQuery
    /// Each row's value as read from the record it was read from, so that a change reads
    /// again only the records it touched.
    @ObservationIgnored private var read: [String: (fingerprint: Fingerprint, value: R?)] = [:]

    init(_ live: LiveQuery, state: StoreState) {
        self.live = live
        update(from: state)
        live.onChange = { [weak self] state in self?.update(from: state) }
    }

    private func update(from state: StoreState) {
        var values: [R] = [], paths: [String] = [], unreadable: [String] = []
        var kept: [String: (fingerprint: Fingerprint, value: R?)] = [:]
        for record in live.results where record.kind == R.kind {
            let value: R?
            if let earlier = read[record.path], earlier.fingerprint == record.fingerprint {
                value = earlier.value
            } else {
                value = state.document(of: record).flatMap { try? R(document: $0) }
            }
            kept[record.path] = (record.fingerprint, value)
            if let value {
                values.append(value)
                paths.append(record.path)
            } else {
                unreadable.append(record.path)
            }
        }
        // Only a real change is told to observers: another row, or a row's file changed.
        let changed = paths != self.paths || paths.contains { read[$0]?.fingerprint != kept[$0]?.fingerprint }
        read = kept
        if changed {
            self.values = values
            self.paths = paths
        }
        if unreadable != self.unreadable { self.unreadable = unreadable }
    }
}
