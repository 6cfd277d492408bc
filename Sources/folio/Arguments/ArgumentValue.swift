/// A value an option's text is read as: a number, a duration in a unit, one of a fixed
/// set of words. What the declaration adds to the type (a range) is its ``Format``.
protocol ArgumentValue: Sendable {
    /// What an option's declaration says about how its text is read (a unit, a range).
    associatedtype Format: Sendable
    /// The value `text` stands for under `format`, or nil when it is none.
    static func read(_ text: String, _ format: Format) -> Self?
    /// What the option needs, as said in the help and when a value is refused
    /// ("a whole number"); nil when any text will do.
    static func expected(_ format: Format) -> String?
    /// The only values allowed, when they are a fixed set; the parser refuses others.
    static var choices: [String]? { get }
    /// What to write instead of `text`, refused, when there is a likely fix (a duration
    /// without its unit); nil when the expected form says enough.
    static func advice(for text: String, _ format: Format) -> String?
}

extension ArgumentValue {
    static var choices: [String]? { nil }
    static func advice(for text: String, _ format: Format) -> String? { nil }
}

/// The format of a value whose declaration adds nothing to its type.
struct PlainFormat: Sendable {}
