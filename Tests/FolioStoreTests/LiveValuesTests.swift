import FolioFormat
import FolioModel
import FolioTestSupport
import Foundation
import Testing
@testable import FolioStore

/// A live query of an app's own type: its rows as values, kept current, one that does
/// not read as the type named rather than dropped, and `today` moving on with the day.
@MainActor @Suite struct LiveValuesTests {
    struct Run: RecordType, Codable, Equatable {
        static let kind = Kind(rawValue: "run")
        var title: String
        var date: CalendarDate
        var distance: Double
    }

    @Test func rowsAreValuesKeptCurrentAndMoveOnWithTheDay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixtures.write([
            "runs/park.md": "---\nkind: run\ntitle: Park\ndate: 2026-11-27\ndistance: 5\n---\n",
            "runs/river.md": "---\nkind: run\ntitle: River\ndate: 2026-12-03\ndistance: 10.5\n---\n",
            "runs/far.md": "---\nkind: run\ntitle: Far\ndate: 2026-12-02\ndistance: far\n---\n",
            "notes/n.md": "---\ntitle: Not a run\ndate: 2026-12-03\n---\n",
        ], into: folder)
        let store = try await Store.load(folder.path, removedFiles: nil)
        store.register(Run.self)
        let week = try store.liveQuery(Run.self, "date>=today-6d sort:date")
        // The week before 2026-12-04: the river run (the park run is older); far does not read.
        week.live.moveOn(to: try #require(CalendarDate("2026-12-04")), in: store.state)
        #expect(week.values == [Run(title: "River", date: try #require(CalendarDate("2026-12-03")), distance: 10.5)])
        #expect(week.paths == ["runs/river.md"] && week.unreadable == ["runs/far.md"])
        // A day earlier, the park run is in the week too.
        week.live.moveOn(to: try #require(CalendarDate("2026-12-03")), in: store.state)
        #expect(week.values.map(\.title) == ["Park", "River"])
        // Kept current: a run added shows at once (in the query's order), one edited likewise.
        #expect(await store.add(Run(title: "Hill", date: try #require(CalendarDate("2026-12-01")), distance: 7)).errors.isEmpty)
        #expect(week.values.map(\.title) == ["Park", "Hill", "River"])
        #expect(await store.update(Run(title: "River", date: try #require(CalendarDate("2026-12-03")), distance: 12), at: "runs/river.md").errors.isEmpty)
        #expect(week.values.last?.distance == 12)
        // A query that does not name today does not move.
        let all = try store.liveQuery(Run.self, "sort:title")
        all.live.moveOn(to: try #require(CalendarDate("2030-01-01")), in: store.state)
        #expect(all.values.map(\.title) == ["Hill", "Park", "River"] && all.unreadable == ["runs/far.md"])
    }
}
