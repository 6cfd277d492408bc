import FolioFormat
import Foundation

extension CalendarDate {
    /// Today's date where this device is (its time zone): what a query's `today` means.
    static var today: CalendarDate {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return CalendarDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? CalendarDate(daysSinceEpoch: 0)
    }
}
