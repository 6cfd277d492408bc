/// What a subcommand accepts, declared once: its flags, its options (typed: ``Option``),
/// and its positionals. Parsing, the help's usage lines and option list, and the
/// refusal of values not allowed all come from here, so the help cannot name an option
/// the parser refuses, nor the reverse; docs/cli.md's synopses are checked against the
/// usage lines (CommandReferenceTests).
struct ArgumentSpec: Sendable {
    var flags: [Flag] = []
    var options: [OptionInfo] = []
    var positionals: ClosedRange<Int>
    var positionalNames: String
    /// The positional part of each usage line (`DIR`, or `DIR` and `A B` for two forms).
    var synopses: [String] = []

    /// The names of the flags.
    var flagNames: Set<String> { Set(flags.map(\.name)) }
    /// The names of the options that take a value.
    var optionNames: Set<String> { Set(options.map(\.name)) }
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
