import Foundation

/// A day from its text, today's day, and days counted between days.
extension CalendarDate: LosslessStringConvertible, Strideable {
    /// The day `text` names, written `YYYY-MM-DD` as front matter writes it
    /// (`CalendarDate("2026-12-01")`); nil for anything else, including a day that does
    /// not exist (`2026-02-30`) and a date with a time (take ``YAMLValue/calendarDate``
    /// for those).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `days` after this one (before it, when negative).
    public func adding(days: Int) -> CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// How many days `other` is after this one (negative when before).
    public func days(until other: CalendarDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    /// The day `n` days after this one (`Strideable`: `date.advanced(by: 7)`, `a...b` as days).
    public func advanced(by n: Int) -> CalendarDate { adding(days: n) }

    /// How many days `other` is after this one (`Strideable`).
    public func distance(to other: CalendarDate) -> Int { days(until: other) }

    /// The day it is at `instant` in `timeZone`: `CalendarDate.today()` is today where
    /// the device is; a test passes its own instant.
    public static func today(at instant: Date = Date(), in timeZone: TimeZone = .current) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        // Calendar gives all three for a Gregorian date; the epoch's day stands in should it not.
        return CalendarDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? CalendarDate(daysSinceEpoch: 0)
    }
}
