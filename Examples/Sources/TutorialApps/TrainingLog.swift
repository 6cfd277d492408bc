import Folio

/// A run, the training log's own kind: one Markdown file per run in `runs/`.
public struct Run: RecordType, Codable, Equatable {
    public static let kind = Kind(rawValue: "run")
    public var date: CalendarDate
    public var distance: Double
    public var time: TimeSpan?
    /// How it felt, 1 (awful) to 5 (great).
    public var feel: Int?

    public init(date: CalendarDate, distance: Double, time: TimeSpan? = nil, feel: Int? = nil) {
        (self.date, self.distance, self.time, self.feel) = (date, distance, time, feel)
    }

    /// Starts with the field's name, so the store places it at that field (`runs/…:5:7`).
    public var problems: [String] {
        guard let feel, !(1...5).contains(feel) else { return [] }
        return ["feel \(feel) is not from 1 to 5"]
    }
}

/// The training log's model: runs by day, the last seven days kept current (and moving
/// on at midnight), what is wrong in the folder with where.
@MainActor
public final class TrainingLog {
    public let store: Store
    /// The last seven days' runs, newest first.
    public let lastWeek: LiveValues<Run>

    public init(_ folder: String) async throws {
        store = try await Store.load(folder)
        store.register(Run.self)
        lastWeek = try store.liveQuery(Run.self, "date>=today-6d sort:-date")
    }

    /// Kilometres run in the last seven days.
    public var weekDistance: Double { lastWeek.values.reduce(0) { $0 + $1.distance } }

    /// Logs `run` as `runs/YYYY-MM-DD.md` (`-2` for a second run that day).
    @discardableResult
    public func log(_ run: Run) async -> ActionResult { await store.add(run, named: run.date.description) }

    /// Every problem in the folder, `path:line:col: …`.
    public var problems: [String] { store.problems.map(\.description) }
}
