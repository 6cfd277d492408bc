/// A duration written as a number in its option's declared unit.
extension Duration: ArgumentValue {
    static func read(_ text: String, _ format: DurationFormat) -> Duration? {
        if format.unit == .spelled {
            // `500ms`, `2s`, `1.5m`, `1h`; a bare number is seconds.
            let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
            let (number, seconds) = units.first { text.hasSuffix($0.suffix) }.map { (Double(text.dropLast($0.suffix.count)), $0.seconds) } ?? (Double(text), 1)
            guard let number, number.isFinite, format.range.contains(number * seconds) else { return nil }
            return .milliseconds(Int((number * seconds * 1000).rounded()))
        }
        // A whole-number option refuses `1.5` as it did when it was read as an Int.
        guard let number = format.fractions ? Double(text) : Int(text).map(Double.init), format.range.contains(number) else { return nil }
        return .milliseconds(Int(number * format.unit.milliseconds))
    }

    static func expected(_ format: DurationFormat) -> String? {
        if format.unit == .spelled { return "a duration such as 500ms, 2s, 5m or 1h, up to \(format.limitName)" }
        return "a number of \(format.unit.plural) up to \(format.limitName) (\(Int(format.range.upperBound)))"
    }
}
