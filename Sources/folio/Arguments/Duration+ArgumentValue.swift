/// A duration written as a number in its option's declared unit.
extension Duration: ArgumentValue {
    static func read(_ text: String, _ format: DurationFormat) -> Duration? {
        // A whole-number option refuses `1.5` as it did when it was read as an Int.
        guard let number = format.fractions ? Double(text) : Int(text).map(Double.init), format.range.contains(number) else { return nil }
        return .milliseconds(Int(number * format.unit.milliseconds))
    }

    static func expected(_ format: DurationFormat) -> String? {
        "a number of \(format.unit.plural) up to \(format.limitName) (\(Int(format.range.upperBound)))"
    }
}
