/// The typed reading of options and flags, through their declarations.
extension ParsedArguments {
    /// Whether `flag` was given.
    func isSet(_ flag: Flag) -> Bool { flags.contains(flag) }

    /// The value of `positional`, one its form needs: the parser refused a count
    /// without it (see ``ArgumentSpec/positionals``).
    func value(of positional: Positional) -> String {
        precondition(!positional.isOptional && positional.index < positionals.count, "\(positional.name) is checked by the parser")
        return positionals[positional.index]
    }

    /// `positional` and every argument after it (a command whose last positional takes
    /// the rest: ``ArgumentSpec/takesMorePositionals``).
    func values(from positional: Positional) -> [String] {
        Array(positionals.dropFirst(positional.index))
    }

    /// The value of `positional` when it was given (one a form may leave out), else nil.
    func valueIfGiven(_ positional: Positional) -> String? {
        positional.index < positionals.count ? positionals[positional.index] : nil
    }

    /// How many positionals were given: which of a command's forms was used.
    var positionalCount: Int { positionals.count }

    /// The value of `option` (the last one, when given more than once), nil when it was
    /// not given. Read when the command needs it, so that errors come in the order the
    /// command checks things.
    func value<Value>(of option: Option<Value>) throws(OptionValueError) -> Value? {
        guard let text = options[option.info]?.last else { return nil }
        return try Self.read(text, as: option)
    }

    /// Every value of `option`, in the order given (`--field`, `-L`).
    func values<Value>(of option: Option<Value>) throws(OptionValueError) -> [Value] {
        var values: [Value] = []
        for text in options[option.info] ?? [] { values.append(try Self.read(text, as: option)) }
        return values
    }

    /// The value of a required option; its absence is bad usage, said with the help.
    func required<Value>(_ option: Option<Value>) throws(OptionValueError) -> Value {
        guard let value = try value(of: option) else { throw Self.missing(option) }
        return value
    }

    /// The error for a required `option` left out (or given as nothing usable).
    static func missing<Value>(_ option: Option<Value>) -> OptionValueError {
        OptionValueError(description: "\(option.name) is required", showsHelp: true)
    }

    /// `text` as `option`'s value, or `--name needs WHAT, got 'TEXT'`.
    static func read<Value>(_ text: String, as option: Option<Value>) throws(OptionValueError) -> Value {
        guard let value = Value.read(text, option.format) else {
            // Choices are refused by the parser already; this is a number or a duration.
            let advice = Value.advice(for: text, option.format).map { ": " + $0 } ?? ""
            throw OptionValueError(description: "\(option.name) needs \(option.info.expected ?? "a value"), got '\(text)'" + advice)
        }
        return value
    }
}
