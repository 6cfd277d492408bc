import FolioFormat

/// A duration as recipes write it: `15m`, `1h30m`, `90` (seconds), `PT15M`, `1 h 30 min`.
///
/// A span read from text describes itself as written (`1h05m` stays `1h05m`, so a
/// record saved back keeps its line); one made from seconds, or whose seconds were
/// changed, as `1h5m`. Two spans of the same length are equal however written.
public struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The length in seconds.
    public var seconds: Int {
        get { length }
        set {
            length = newValue
            written = nil
        }
    }

    private var length: Int
    /// The text it was read from, while it still says ``seconds``.
    private var written: String?

    /// Creates a span of `seconds`.
    public init(seconds: Int) { length = seconds }

    /// Reads a YAML value: an integer is seconds; text is parsed.
    public init?(_ value: YAMLValue) {
        if case .int(let seconds) = value { self.init(seconds: seconds); return }
        guard let text = value.text else { return nil }
        self.init(text)
    }

    /// Parses `15m`, `1h30m`, `1h 30min`, `45s`, `90`, `PT1H15M`, `2 hours`.
    public init?(_ text: String) {
        // Every form starts, past blanks, with a digit, a sign or a point, or the P of PT15M.
        guard let first = text.firstByteAfterBlanks, first.mayStartNumber || first == UInt8(ascii: "p") || first == UInt8(ascii: "P") else { return nil }
        var rest = Substring(text.trimmingCharacters(in: " \t").lowercased())
        if rest.hasPrefix("pt") { rest = rest.dropFirst(2) } else if rest.hasPrefix("p") { return nil }
        if let seconds = Int(rest) { self.init(seconds: seconds); return }
        var total = 0
        var sawUnit = false
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " }
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            guard !digits.isEmpty, let amount = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count).drop { $0 == " " }
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let scale: Double
            switch unit {
            case "h", "hr", "hrs", "hour", "hours", "ora", "ore": scale = 3600
            case "m", "min", "mins", "minute", "minutes", "minuti": scale = 60
            case "s", "sec", "secs", "second", "seconds": scale = 1
            default: return nil
            }
            total += Int((amount * scale).rounded())
            sawUnit = true
            rest = rest.drop { $0 == " " || $0 == "," }
        }
        guard sawUnit else { return nil }
        self.init(seconds: total)
        written = text.trimmingCharacters(in: " \t")
    }

    /// As written (`1h05m`, `1 h 30 min`, `PT15M`), else `1h30m`, `15m`, `45s`.
    public var description: String { written ?? canonical }

    /// `1h30m`, `15m`, `45s`.
    var canonical: String {
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, secs = seconds % 60
        var text = ""
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if secs > 0 || text.isEmpty { text += "\(secs)s" }
        return text
    }

    /// Shorter spans sort first.
    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds < b.seconds }

    /// Spans of the same length are equal, however each was written.
    public static func == (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds == b.seconds }

    /// The length's hash (as ``==`` compares).
    public func hash(into hasher: inout Hasher) { hasher.combine(length) }
}
