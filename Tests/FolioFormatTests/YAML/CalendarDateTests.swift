import Foundation
import FolioFormat
import FolioTestSupport
import Testing

/// `CalendarDate` as an app uses it: made from its text and back, today in a time zone,
/// and days counted forward and back across months, leap days and the epoch.
@Suite struct CalendarDateTests {
    @Test func aDayFromItsTextAndBack() {
        #expect(CalendarDate("2026-12-01") == CalendarDate(year: 2026, month: 12, day: 1))
        #expect(CalendarDate("2024-02-29")?.description == "2024-02-29")
        for refused in ["2026-02-29", "2026-13-01", "2026-12-1", "2026/12/01", "2026-12-01T09:00:00", " 2026-12-01", "", "２０２６-12-01"] {
            #expect(CalendarDate(refused) == nil, "\(refused)")
        }
    }

    @Test func todayIsTheDayWhereTheDeviceIs() throws {
        // 2026-12-06 23:30 UTC: still the 6th in London, already the 7th in Tokyo.
        let instant = Date(timeIntervalSince1970: 1_796_599_800)
        #expect(CalendarDate.today(at: instant, in: try #require(TimeZone(identifier: "Europe/London"))).description == "2026-12-06")
        #expect(CalendarDate.today(at: instant, in: try #require(TimeZone(identifier: "Asia/Tokyo"))).description == "2026-12-07")
        #expect(CalendarDate.today(at: instant, in: try #require(TimeZone(identifier: "America/Los_Angeles"))).description == "2026-12-06")
    }

    @Test func daysAddedAndCountedAsACalendarDoes() throws {
        let day = try #require(CalendarDate("2024-02-28"))
        #expect(day.adding(days: 1).description == "2024-02-29")
        #expect(day.adding(days: 2).description == "2024-03-01")
        #expect(day.adding(days: -59).description == "2023-12-31")
        #expect(try #require(CalendarDate("1970-01-01")).adding(days: -1).description == "1969-12-31")
        #expect(day.days(until: try #require(CalendarDate("2025-02-28"))) == 366)
        let week = Array(day...day.adding(days: 6)).map(\.description)
        #expect(week == ["2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05"])
        // Any day and count: adding then counting gives the count back, and the text round-trips.
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let start = CalendarDate(daysSinceEpoch: Int.random(in: -200_000...200_000, using: &random))
            let count = Int.random(in: -5_000...5_000, using: &random)
            #expect(start.days(until: start.adding(days: count)) == count, "seed \(seed)")
            if (1...9999).contains(start.year) { #expect(CalendarDate(start.description) == start, "seed \(seed)") }
        }
    }
}
