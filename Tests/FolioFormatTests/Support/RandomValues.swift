import FolioTestSupport
@testable import FolioFormat

/// Random front-matter data for property tests, rich in the strings that trip YAML writers.
struct RandomValues {
    var random: SeededRandom

    static let trickyStrings = [
        "yes", "no", "on", "off", "y", "n", "Y", "NO", "true", "False", "null", "~", "", " ", "12:30", "1:20:30",
        "2026-11-30", "2026-11-30T09:30:00", "0x1F", "0o17", "017", "0b101", "1_000", ".5", "1e3", ".inf", "-.inf",
        ".nan", "+12", "-", "- a", "? q", ": x", "a: b", "a:b", "x #y", "#hash", "a#b", "[a]", "{b: c}", "a, b",
        "'single'", "\"double\"", "back\\slash", "---", "...", "--- x", "&anchor", "*alias", "!tag", "%dir", "@at",
        "`tick`", "|", ">", " lead", "trail ", "tab\there", "multi\nline", "multi\nline\n", "two\n\nparas\n\n",
        " indented\nfirst", "perché", "Pâté", "🍝 pasta", "caf\u{E9}", "\u{7F}del", "bell\u{07}", "nbsp\u{A0}",
        "line\u{2028}sep", "CR\r\nLF", "=", "<<", "1/2 cup", "15m", "1h30m", "A piacere",
    ]
    static let words = ["pasta", "Uova", "Guanciale", "quick", "dinner", "run", "Buy milk", "Pecorino Romano", "perché"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func string() -> String {
        switch int(0...2) {
        case 0: return Self.trickyStrings[int(0...Self.trickyStrings.count - 1)]
        case 1: return Self.words[int(0...Self.words.count - 1)]
        default: return (0..<int(1...4)).map { _ in Self.words[int(0...Self.words.count - 1)] }.joined(separator: " ")
        }
    }

    mutating func key() -> String {
        chance(85) ? ["title", "time", "servings", "tags", "date", "done", "priority", "notes", "ingredients", "author"][int(0...9)]
            + (chance(30) ? String(int(1...9)) : "") : string()
    }

    mutating func scalar() -> YAMLValue {
        switch int(0...9) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .int(int(-100_000...100_000))
        case 3: return .float([0.5, -2.25, 1e20, 1.5e-7, 3.0, 100.125][int(0...5)])
        case 4: return .timestamp(["2026-11-30", "2026-01-02T09:30:00Z", "2025-12-31 23:59:59 +01:00"][int(0...2)])
        default: return .string(string())
        }
    }

    mutating func value(depth: Int = 0) -> YAMLValue {
        if depth >= 3 || chance(60) { return scalar() }
        if chance(50) { return .sequence((0..<int(0...4)).map { _ in value(depth: depth + 1) }) }
        return .mapping(mapping(depth: depth + 1))
    }

    mutating func mapping(depth: Int = 0, count: ClosedRange<Int> = 0...4) -> YAMLMapping {
        var mapping = YAMLMapping()
        for _ in 0..<int(count) {
            let key = key()
            if mapping[key] == nil { mapping.entries.append(.init(key: key, value: value(depth: depth))) }
        }
        return mapping
    }
}
