/// What the parser, the usage line and the help need to know of an option, whatever
/// the type of its value (``Option`` holds one, with the typed part). Hashable: the
/// parsed arguments keep an option's texts by its declaration.
struct OptionInfo: Sendable, Hashable {
    /// As written on the command line (`--state`).
    var name: String
    /// The value's name in the usage line (`DIR`), or its choices joined by `|`.
    var valueName: String
    /// One line for the help's option list.
    var help: String
    /// Whether the command needs it: shown without brackets in the usage line.
    var isRequired: Bool
    /// The only values allowed, when they are a fixed set.
    var choices: [String]?
    /// What the value needs ("a whole number"), for the help and when refused.
    var expected: String?
    /// The value used when the option is not given, for the help only (the library's
    /// own default is what counts, so that the two cannot disagree at run time).
    var defaultText: String?

    /// `--state DIR`, or `--keep file|copy`.
    var synopsis: String { "\(name) \(choices?.joined(separator: "|") ?? valueName)" }
}
