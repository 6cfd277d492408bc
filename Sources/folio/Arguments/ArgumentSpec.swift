/// What a subcommand accepts, declared once: its flags, its options (typed: ``Option``),
/// and its positionals. Parsing, the help's usage lines and option list, and the
/// refusal of values not allowed all come from here, so the help cannot name an option
/// the parser refuses, nor the reverse; docs/cli.md's synopses are checked against the
/// usage lines (CommandReferenceTests).
struct ArgumentSpec: Sendable {
    var flags: [Flag] = []
    var options: [OptionInfo] = []
    /// The forms the command takes, each its positionals in order (`DIR`, or `A B`).
    var forms: [[Positional]] = []
    /// How many positionals the forms take together, from the fewest to the most.
    var positionals: ClosedRange<Int>
    /// What the forms take, in words, for the error when the count is wrong.
    var positionalNames: String
    /// The positional part of each usage line (`DIR`, or `DIR` and `A B` for two forms).
    var synopses: [String] = []
    /// Whether the last positional takes every argument after it too (`folio query DIR
    /// tag:pasta OR tag:bread`), a word starting with `-` among them unless it is one of
    /// the command's own options.
    var takesMorePositionals = false

    /// A command of `flags` and `options` whose positionals are one of `forms`
    /// (`[[dir], [a, b]]`; none: `[]`); `positionalNames` says them in words.
    init(flags: [Flag] = [], options: [OptionInfo] = [], forms: [[Positional]] = [], positionalNames: String) {
        (self.flags, self.options, self.forms, self.positionalNames) = (flags, options, forms, positionalNames)
        let fewest = forms.map { form in form.filter { !$0.isOptional }.count }.min() ?? 0
        let most = forms.map(\.count).max() ?? 0
        positionals = fewest...most
        synopses = forms.map { form in form.map(\.synopsis).joined(separator: " ") }
    }

    /// Whether a form's first positional is a folder, `DIR`, which may then be left out
    /// (``DefaultFolder``).
    var leadsWithFolder: Bool { forms.contains { $0.first.map { $0.name == "DIR" && !$0.isOptional } ?? false } }

    /// The names of the flags.
    var flagNames: Set<String> { Set(flags.map(\.name)) }
    /// The names of the options that take a value.
    var optionNames: Set<String> { Set(options.map(\.name)) }
    /// Each flag's declaration, by the name the command line writes: what the parser
    /// stores of a flag given, so that commands read it by its declaration.
    var flagsByName: [String: Flag] { Dictionary(flags.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
    /// Each option's declaration, by the name the command line writes (see ``flagsByName``).
    var optionsByName: [String: OptionInfo] { Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
    /// The values some options allow, by option; any other is refused as bad usage.
    var choices: [String: [String]] {
        Dictionary(uniqueKeysWithValues: options.compactMap { option in option.choices.map { (option.name, $0) } })
    }

    /// `[--flag]`, `--required VALUE` and `[--option VALUE]`, in the order of the usage line.
    var extras: [String] { flags.map { "[\($0.name)]" } + options.map { $0.isRequired ? $0.synopsis : "[\($0.synopsis)]" } }

    /// Each form of the command on one line (`folio watch DIR [--json] …`): the usage
    /// lines unwrapped, as docs/cli.md and the README write them.
    func synopses(_ command: String) -> [String] {
        (synopses.isEmpty ? [""] : synopses).map { synopsis in
            (["folio", command, synopsis].filter { !$0.isEmpty } + extras).joined(separator: " ")
        }
    }

    /// `usage: folio NAME SYNOPSIS [--flag] --required VALUE [--option VALUE]…`, a line
    /// per synopsis; a required option stands without brackets.
    func usage(_ command: String) -> String {
        let extras = extras
        let forms = synopses.isEmpty ? [""] : synopses
        return forms.enumerated().map { index, synopsis in
            // Wrapped at 80 columns, continuation lines under the first argument.
            let head = (index == 0 ? "usage: " : "       ") + ["folio", command, synopsis].filter { !$0.isEmpty }.joined(separator: " ")
            let indent = String(repeating: " ", count: 7 + "folio \(command) ".count)
            var lines = [head]
            for extra in extras {
                if lines[lines.count - 1].count + 1 + extra.count > 80 { lines.append(indent + extra) } else { lines[lines.count - 1] += " " + extra }
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
