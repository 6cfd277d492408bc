import Observation

/// A query whose results the store keeps current: a view that shows
/// `live.results` is redrawn when, and only when, they change. Made by
/// ``Store/liveQuery(_:)``; current from the same turn as the store's state.
///
/// Kept from each change set rather than run again: the records the change touched
/// are asked of the query (through the same indexes), and put in or taken out. A query
/// with `sort:` or `limit:` is run again whole, but only when a touched record matched
/// it before or matches it now.
@MainActor
@Observable
public final class LiveQuery {
    /// The query.
    public let query: Query
    /// The records matching it now, in its order.
    public private(set) var results: [Record]
    /// How many change sets made the whole query run again (the rest were merged), for tests.
    @ObservationIgnored package private(set) var fullRuns = 0

    init(query: Query, state: StoreState) {
        self.query = query
        results = state.records(matching: query)
    }

    /// Follows `changes`, which `state` now holds.
    func follow(_ changes: ChangeSet, in state: StoreState) {
        let touched = Set(changes.paths)
        guard !touched.isEmpty else { return }
        let matching = state.records(matching: query, among: Array(touched))
        if query.sortKey != nil || query.limit != nil {
            guard !matching.isEmpty || results.contains(where: { touched.contains($0.path) }) else { return }
            fullRuns += 1
            let fresh = state.records(matching: query)
            if fresh != results { results = fresh }
            return
        }
        let merged = (results.filter { !touched.contains($0.path) } + matching).sorted { $0.path < $1.path }
        if merged != results { results = merged }
    }
}

extension Store {
    /// A query kept current as the folder changes (see ``LiveQuery``), for as long as the
    /// caller holds it.
    /// - Throws: ``QueryError`` pointing at the character where the query went wrong.
    public func liveQuery(_ text: String) throws(QueryError) -> LiveQuery {
        let live = LiveQuery(query: try Query(parsing: text), state: state)
        liveQueries.append(WeakLiveQuery(live))
        return live
    }
}

/// A live query the store updates without keeping it alive.
struct WeakLiveQuery {
    weak var query: LiveQuery?
    init(_ query: LiveQuery) { self.query = query }
}
