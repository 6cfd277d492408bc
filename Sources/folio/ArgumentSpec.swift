/// What a subcommand accepts, declared once: its flags, its options (with the name of
/// their value, and the values allowed when there is a fixed set), and its positionals.
/// Parsing, the help's usage lines and the refusal of values not allowed all come from
/// here, so the help cannot name an option the parser refuses, nor the reverse.
struct ArgumentSpec {
    var flags: [String] = []
    /// Each option with the name its value has in the usage line (`--state DIR`).
    var options: [(name: String, value: String)] = []
    /// The values some options allow; any other is refused as bad usage, with these listed.
    var choices: [String: [String]] = [:]
    var positionals: ClosedRange<Int>
    var positionalNames: String
    /// The positional part of each usage line (`DIR`, or `DIR` and `A B` for two forms).
    var synopses: [String] = []

    /// The names of the options that take a value.
    var optionNames: Set<String> { Set(options.map(\.name)) }

    /// `usage: folio NAME SYNOPSIS [--flag] [--option VALUE]…`, a line per synopsis.
    func usage(_ command: String) -> String {
        let extras = flags.map { "[\($0)]" } + options.map { option in
            let value = choices[option.name]?.joined(separator: "|") ?? option.value
            return "[\(option.name) \(value)]"
        }
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
