/// What a subcommand accepts: flags, options with a value, and how many positionals.
struct ArgumentSpec {
    var flags: Set<String> = []
    var options: Set<String> = []
    var positionals: ClosedRange<Int>
    var positionalNames: String
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
            if spec.options.contains(argument) { index += 1 }
        }
        return false
    }

    init(_ arguments: [String], spec: ArgumentSpec) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
            } else if argument == "--" {
                onlyPositionals = true
            } else if spec.flags.contains(argument) {
                flags.insert(argument)
            } else if spec.options.contains(argument) {
                guard index < arguments.count else { throw UsageError(description: "option '\(argument)' needs a value") }
                options[argument, default: []].append(arguments[index])
                index += 1
            } else if let equals = argument.firstIndex(of: "="), spec.options.contains(String(argument[..<equals])) {
                options[String(argument[..<equals]), default: []].append(String(argument[argument.index(after: equals)...]))
            } else {
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
        guard spec.positionals.contains(positionals.count) else {
            throw UsageError(description: "expected \(spec.positionalNames), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")")
        }
    }
}
