/// A declared option that takes a value of type `Value`: its name, the value's name,
/// its help, whether it is required, and how its text is read (``ArgumentValue``).
/// Commands read it typed, `try arguments.value(of: Self.kind)`, never by name.
struct Option<Value: ArgumentValue>: Sendable {
    /// The part the parser and the help read.
    var info: OptionInfo
    /// How the text is read (a unit, a range).
    var format: Value.Format

    init(_ name: String, _ valueName: String, help: String, required: Bool = false, default defaultText: String? = nil, format: Value.Format) {
        info = OptionInfo(
            name: name, valueName: valueName, help: help, isRequired: required, choices: Value.choices,
            expected: Value.expected(format), defaultText: defaultText)
        self.format = format
    }

    var name: String { info.name }
}

extension Option where Value.Format == PlainFormat {
    /// An option whose type alone says how it is read: text, or one of an enum's cases.
    init(_ name: String, _ valueName: String = "", help: String, required: Bool = false, default defaultText: String? = nil) {
        self.init(name, valueName, help: help, required: required, default: defaultText, format: PlainFormat())
    }
}

extension Option where Value == Duration {
    /// A duration with its unit (`DURATION`), from `range.lowerBound` to `range.upperBound`
    /// seconds (`upTo`, the bound in words).
    init(_ name: String, range: ClosedRange<Double>, upTo limitName: String, help: String, default defaultText: String? = nil) {
        self.init(name, "DURATION", help: help, default: defaultText, format: DurationFormat(range: range, limitName: limitName))
    }
}
