/// How an `Option<Duration>` reads its text: a number with its unit after it (`500ms`,
/// `2s`, `1.5m`, `1h`), within `range` (in seconds). Every duration option reads the
/// same way; a bare number is refused with the fix, as it once meant milliseconds in
/// one command (`watch --quiet 50`) and seconds in another (`fold --quiet 2`).
struct DurationFormat: Sendable {
    /// The values allowed, in seconds.
    var range: ClosedRange<Double>
    /// The upper bound in words ("an hour"), for the help and errors.
    var limitName: String
}

/// A duration written with its unit.
extension Duration: ArgumentValue {
    static func read(_ text: String, _ format: DurationFormat) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }),
              let number = Double(text.dropLast(unit.suffix.count)), number.isFinite, format.range.contains(number * unit.seconds)
        else { return nil }
        return .milliseconds(Int((number * unit.seconds * 1000).rounded()))
    }

    static func expected(_ format: DurationFormat) -> String? {
        "a duration such as 500ms, 2s, 5m or 1h, up to \(format.limitName)"
    }

    static func advice(for text: String, _ format: DurationFormat) -> String? {
        guard Double(text) != nil else { return nil }
        return "write its unit after the number, e.g. \(text)ms or \(text)s"
    }
}
