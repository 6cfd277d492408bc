import struct Foundation.Date

/// A calendar day with no time or zone, as front matter writes `date: 2026-11-30`.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int

    /// Creates a date, or nil when the day does not exist (`2026-02-30`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Earlier days sort first.
    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The day `days` after 1970-01-01 (Howard Hinnant's civil-from-days, the inverse
    /// of ``daysSinceEpoch``).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01, negative before it (Howard Hinnant's days-from-civil);
    /// ``init(daysSinceEpoch:)`` is its inverse.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension YAMLValue {
    /// The calendar day of a date or date-time written as text (plain or quoted):
    /// `2026-11-30`, `2026-11-30T09:30:00`, `2026-11-30 09:30:00 +01:00`. Nil for
    /// anything else, including days that do not exist.
    public var calendarDate: CalendarDate? {
        guard let text = stringValue, text.utf8.first.map({ $0 >= 48 && $0 <= 57 }) == true,
              let parts = DateTimeText(text) else { return nil }
        return parts.date
    }

    /// The instant a date or date-time names. A date alone is midnight UTC; a time
    /// without a zone is taken as UTC.
    public var date: Date? {
        guard let text = stringValue, let parts = DateTimeText(text) else { return nil }
        let seconds = Double(parts.date.daysSinceEpoch * 86_400 + parts.secondsOfDay - parts.zoneOffsetSeconds)
        return Date(timeIntervalSince1970: seconds + parts.fraction)
    }
}

/// The parts of an ISO 8601 / YAML timestamp text.
struct DateTimeText {
    var date: CalendarDate
    var secondsOfDay = 0
    var fraction = 0.0
    var zoneOffsetSeconds = 0

    init?(_ text: String) {
        var utf8 = Array(text.utf8)
        let isTimestamp = utf8.withUnsafeMutableBufferPointer { ScalarResolver.isTimestamp(UnsafeBufferPointer($0)) }
        guard isTimestamp else { return nil }
        var i = 0
        func number() -> Int {
            var n = 0
            while i < utf8.count, utf8[i] >= 48, utf8[i] <= 57 {
                n = n * 10 + Int(utf8[i] - 48)
                i += 1
            }
            return n
        }
        let year = number()
        i += 1
        let month = number()
        i += 1
        let day = number()
        guard let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        self.date = date
        guard i < utf8.count else { return }
        while i < utf8.count, utf8[i] == 32 || utf8[i] == 9 || utf8[i] == UInt8(ascii: "T") || utf8[i] == UInt8(ascii: "t") { i += 1 }
        let hour = number()
        i += 1
        let minute = number()
        i += 1
        let second = number()
        guard hour < 24, minute < 60, second < 61 else { return nil }
        secondsOfDay = hour * 3600 + minute * 60 + second
        if i < utf8.count, utf8[i] == UInt8(ascii: ".") {
            let start = i
            i += 1
            _ = number()
            fraction = Double(String(decoding: utf8[start..<i], as: UTF8.self)) ?? 0
        }
        while i < utf8.count, utf8[i] == 32 || utf8[i] == 9 { i += 1 }
        guard i < utf8.count, utf8[i] != UInt8(ascii: "Z") else { return }
        let sign = utf8[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        let zoneHours = number()
        var zoneMinutes = 0
        if i < utf8.count, utf8[i] == UInt8(ascii: ":") {
            i += 1
            zoneMinutes = number()
        }
        zoneOffsetSeconds = sign * (zoneHours * 3600 + zoneMinutes * 60)
    }
}
