import Testing
@testable import FolioFormat

@Suite struct ScalarResolverTests {
    @Test(arguments: [
        ("yes", YAMLValue.string("yes")), ("no", .string("no")), ("on", .string("on")), ("off", .string("off")),
        ("y", .string("y")), ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)), ("tRUE", .string("tRUE")),
        ("false", .bool(false)), ("FALSE", .bool(false)), ("null", .null), ("Null", .null), ("NULL", .null), ("~", .null),
        ("nULL", .string("nULL")), ("0", .int(0)), ("-12", .int(-12)), ("+12", .int(12)), ("007", .int(7)),
        ("0o17", .int(15)), ("0x1F", .int(31)), ("0x", .string("0x")), ("0o8", .string("0o8")), ("1.5", .float(1.5)),
        ("-.5", .float(-0.5)), ("1.", .float(1)), ("1e3", .float(1000)), ("1E-2", .float(0.01)), (".inf", .float(.infinity)),
        ("-.Inf", .float(-.infinity)), ("+.INF", .float(.infinity)), ("nan", .string("nan")), ("inf", .string("inf")),
        ("infinity", .string("infinity")), ("1_000", .string("1_000")), ("12:30", .string("12:30")), ("1e", .string("1e")),
        (".", .string(".")), ("-", .string("-")), ("2026-11-30", .timestamp("2026-11-30")),
        ("2026-11-30T09:30:00Z", .timestamp("2026-11-30T09:30:00Z")), ("2026-11-30 9:30:00 +01:00", .timestamp("2026-11-30 9:30:00 +01:00")),
        ("2026-1-3", .string("2026-1-3")), ("2026-11-30T09:30", .string("2026-11-30T09:30")),
    ])
    func coreSchema(text: String, expected: YAMLValue) {
        #expect(ScalarResolver.resolvePlain(text) == expected)
    }

    @Test func nanIsAFloat() {
        guard case .float(let value) = ScalarResolver.resolvePlain(".NaN") else {
            Issue.record("'.NaN' is not a float")
            return
        }
        #expect(value.isNaN)
    }

    @Test func hugeIntegersStayNumbers() {
        #expect(ScalarResolver.resolvePlain("12345678901234567890123") == .float(12345678901234567890123))
    }

    @Test(arguments: ["yes", "No", "ON", "off", "y", "N", "12:30", "1:20:30", "190:20:30.15", "0b101", "017", "1_000",
                      "2026-11-30", "2026-11-30 09:30:00", "=", "<<", ".5", "1.2e+3", "~", ""])
    func yaml11ReadersMisread(text: String) {
        #expect(ScalarResolver.isNonStringInYAML11(text))
    }

    @Test(arguments: ["pasta", "1/2 cup", "15m", "1h30m", "A piacere", "1.2.3", "12:30 pm", "nope", "."])
    func yaml11ReadersReadAsStrings(text: String) {
        #expect(!ScalarResolver.isNonStringInYAML11(text))
    }
}

@Suite struct DateAccessorTests {
    @Test func calendarDates() {
        #expect(YAMLValue.timestamp("2026-11-30").calendarDate == CalendarDate(year: 2026, month: 11, day: 30))
        #expect(YAMLValue.string("2026-12-01T09:30:00").calendarDate?.description == "2026-12-01")
        #expect(YAMLValue.string("2026-02-30").calendarDate == nil)
        #expect(YAMLValue.string("2024-02-29").calendarDate != nil)
        #expect(YAMLValue.string("2025-02-29").calendarDate == nil)
        #expect(YAMLValue.string("tomorrow").calendarDate == nil)
        #expect(YAMLValue.int(2026).calendarDate == nil)
    }

    @Test func instants() {
        #expect(YAMLValue.timestamp("1970-01-02").date?.timeIntervalSince1970 == 86_400)
        #expect(YAMLValue.timestamp("2026-11-30T09:30:00Z").date?.timeIntervalSince1970 == 1_796_031_000)
        #expect(YAMLValue.timestamp("2026-11-30 10:30:00 +01:00").date?.timeIntervalSince1970 == 1_796_031_000)
        #expect(YAMLValue.timestamp("2026-11-30T09:30:00.5").date?.timeIntervalSince1970 == 1_796_031_000.5)
        #expect(YAMLValue.timestamp("1969-12-31").date?.timeIntervalSince1970 == -86_400)
    }
}
