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

/// Arguments checked against a subcommand's ``ArgumentSpec``.
struct ParsedArguments {
    var flags: Set<String> = []
    var options: [String: [String]] = [:]
    var positionals: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether `arguments` ask for help: `--help` or `-h` where an option may stand — not
    /// as an option's value (`--title -h`), and not after `--`.
    static func askForHelp(_ arguments: [String], spec: ArgumentSpec) -> Bool {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
            if spec.optionNames.contains(argument) { index += 1 }
        }
        return false
    }

    init(_ arguments: [String], spec: ArgumentSpec) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        let flagNames = Set(spec.flags), optionNames = spec.optionNames
        func add(_ value: String, to option: String) throws(UsageError) {
            if let allowed = spec.choices[option], !allowed.contains(value) {
                let list = allowed.count > 1 ? allowed.dropLast().joined(separator: ", ") + " or " + allowed.last! : allowed.joined()
                throw UsageError(description: "\(option) takes \(list), not '\(value)'")
            }
            options[option, default: []].append(value)
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
            } else if argument == "--" {
                onlyPositionals = true
            } else if flagNames.contains(argument) {
                flags.insert(argument)
            } else if optionNames.contains(argument) {
                guard index < arguments.count else { throw UsageError(description: "option '\(argument)' needs a value") }
                try add(arguments[index], to: argument)
                index += 1
            } else if let equals = argument.firstIndex(of: "="), optionNames.contains(String(argument[..<equals])) {
                try add(String(argument[argument.index(after: equals)...]), to: String(argument[..<equals]))
            } else {
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
        guard spec.positionals.contains(positionals.count) else {
            throw UsageError(description: "expected \(spec.positionalNames), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")")
        }
    }
}
