/// A whole number, as Swift's `Int(_:)` reads it, within the declared range.
extension Int: ArgumentValue {
    static func read(_ text: String, _ format: IntFormat) -> Int? {
        guard let number = Int(text), format.range?.contains(number) ?? true else { return nil }
        return number
    }

    static func expected(_ format: IntFormat) -> String? { format.said }
}
