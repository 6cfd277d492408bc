import FolioFormat
import FolioModel
import Foundation
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
    /// The query (its `today` the day it was last run for: see ``moveOn(to:in:)``).
    public private(set) var query: Query
    /// The records matching it now, in its order.
    public private(set) var results: [Record]
    /// How many change sets made the whole query run again (the rest were merged), for tests.
    @ObservationIgnored package private(set) var fullRuns = 0
    /// The query's text, parsed again when the day changes (nil: it does not move on).
    @ObservationIgnored let text: String?
    /// Told after the results changed, with the state they come from (``LiveValues``).
    @ObservationIgnored var onChange: ((StoreState) -> Void)?

    init(query: Query, text: String? = nil, state: StoreState) {
        self.query = query
        self.text = text
        results = state.records(matching: query)
    }

    /// The query as it reads on `today` (`date>=today-6d` is a week back from it), run
    /// again when that differs from the query as it stood: the store calls it at each
    /// midnight, a test with the day it wants.
    package func moveOn(to today: CalendarDate, in state: StoreState) {
        // It parsed before: the same text parses on any day.
        guard let text, let moved = try? Query(parsing: text, today: today), moved != query else { return }
        query = moved
        let fresh = state.records(matching: moved)
        if fresh != results {
            results = fresh
            onChange?(state)
        }
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
            if fresh != results {
                results = fresh
                onChange?(state)
            }
            return
        }
        let merged = (results.filter { !touched.contains($0.path) } + matching).sorted { $0.path < $1.path }
        if merged != results {
            results = merged
            onChange?(state)
        }
    }
}

extension Store {
    /// A query kept current as the folder changes (see ``LiveQuery``), for as long as the
    /// caller holds it.
    /// - Throws: ``QueryError`` pointing at the character where the query went wrong.
    public func liveQuery(_ text: String) throws(QueryError) -> LiveQuery {
        let today = CalendarDate.today()
        let live = LiveQuery(query: try Query(parsing: text, today: today), text: text, state: state)
        liveQueries.append(WeakLiveQuery(live))
        // A query that names `today` moves on at each midnight, for as long as it is held.
        if (try? Query(parsing: text, today: today.adding(days: 1))) != live.query { Self.moveOnAtMidnight(live, store: self) }
        return live
    }

    /// Moves `live` on to each new day at the device's midnight while it is held.
    private static func moveOnAtMidnight(_ live: LiveQuery, store: Store) {
        Task { @MainActor [weak live, weak store] in
            while true {
                let now = Date()
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .current
                let midnight = calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime) ?? now.addingTimeInterval(3_600)
                // Checked at least hourly, so that a clock set forward or a sleeping device catches up.
                let wait = min(max(midnight.timeIntervalSince(now), 1), 3_600)
                try? await Task.sleep(for: .seconds(wait))
                guard let live, let store else { return }
                live.moveOn(to: CalendarDate.today(), in: store.state)
            }
        }
    }

    /// A live query of the registered type `R`: its rows (records of `R`'s kind that
    /// match `text`) as values of `R`, kept current as ``liveQuery(_:)`` keeps its
    /// records (see ``LiveValues``).
    /// - Throws: ``QueryError`` pointing at the character where the query went wrong.
    public func liveQuery<R: RecordType>(_ type: R.Type, _ text: String) throws(QueryError) -> LiveValues<R> {
        LiveValues(try liveQuery(text), state: state)
    }

    /// Every record of the registered type `R` as values of `R`, by title, kept current
    /// (a ``LiveValues`` of the whole kind): the typed form of ``list(of:)``. A record of
    /// the kind that does not read as `R` is in ``LiveValues/unreadable``, and
    /// ``problems`` says where and why.
    public func liveValues<R: RecordType>(of type: R.Type) -> LiveValues<R> {
        var query = Query()
        query.terms = [.field(key: "kind", value: R.kind.rawValue.lowercased())]
        query.sortKey = "title"
        let live = LiveQuery(query: query, state: state)
        liveQueries.append(WeakLiveQuery(live))
        return LiveValues(live, state: state)
    }
}

/// A live query the store updates without keeping it alive.
struct WeakLiveQuery {
    weak var query: LiveQuery?
    init(_ query: LiveQuery) { self.query = query }
}
