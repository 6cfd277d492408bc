import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct TrainingLogTests {
    @Test func runsAreLoggedByDayTheWeekIsLiveAndEveryProblemHasItsPlace() async throws {
        let today = CalendarDate.today()
        let (_, folder) = try await temporaryStore([
            "runs/old.md": "---\nkind: run\ndate: \(today.adding(days: -30))\ndistance: 21\n---\n",
            "runs/far.md": "---\nkind: run\ndate: \(today)\ndistance: far\n---\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = try await TrainingLog(folder)
        #expect(await log.log(Run(date: today.adding(days: -2), distance: 5, time: TimeSpan("28m"), feel: 4)).createdPath == "runs/\(today.adding(days: -2)).md")
        #expect(await log.log(Run(date: today, distance: 10.5)).createdPath == "runs/\(today).md")
        // The week: the two logged runs (newest first); the old one is out, far does not read.
        #expect(log.lastWeek.values.map(\.distance) == [10.5, 5] && log.weekDistance == 15.5)
        #expect(text(folder, "runs/\(today.adding(days: -2)).md") == "---\nkind: run\ndate: \(today.adding(days: -2))\ndistance: 5\ntime: 28m\nfeel: 4\n---\n")
        // A bad value is refused with the type's words, once; one on disk is listed with its place.
        let refused = await log.log(Run(date: today, distance: 3, feel: 9))
        #expect(refused.errors.map(\.message) == ["cannot add the run: feel 9 is not from 1 to 5"])
        #expect(log.problems == ["runs/far.md:4:11: warning: distance: expected a number, found 'far'"])
        #expect(log.lastWeek.unreadable == ["runs/far.md"])
    }
}
