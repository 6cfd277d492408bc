
/// Arguments checked against a subcommand's ``ArgumentSpec``. Commands read the
/// options and flags through their declarations (ParsedArguments+Values.swift), typed.
struct ParsedArguments {
    /// The flags given, as the spec declares them: read by declaration, never by name.
    private(set) var flags: Set<Flag> = []
    /// The text of each option given, by its declaration, in the order given.
    private(set) var options: [OptionInfo: [String]] = [:]
    /// The positionals given, in order: read through their declarations
    /// (ParsedArguments+Values.swift).
    private(set) var positionals: [String] = []

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

    /// `arguments` checked against `spec`. A `DIR` left out (one positional too few, or
    /// for a query, a first word that is not a folder) is `defaultFolder`'s, when it has
    /// one; `isFolder` says whether a path is a folder.
    init(
        _ arguments: [String], spec: ArgumentSpec, defaultFolder: DefaultFolder = DefaultFolder(environment: [:], current: "/", exists: { _ in false }),
        isFolder: (String) -> Bool = { _ in true }
    ) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        let flagsByName = spec.flagsByName, optionsByName = spec.optionsByName
        func add(_ value: String, to option: OptionInfo) throws(UsageError) {
            if let allowed = option.choices, !allowed.contains(value) {
                let list = allowed.count > 1 ? allowed.dropLast().joined(separator: ", ") + " or " + (allowed.last ?? "") : allowed.joined()
                throw UsageError(description: "\(option.name) takes \(list), not '\(value)'")
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
            } else if let flag = flagsByName[argument] {
                flags.insert(flag)
            } else if let option = optionsByName[argument] {
                guard index < arguments.count else { throw UsageError(description: "option '\(argument)' needs a value") }
                try add(arguments[index], to: option)
                index += 1
            } else if let equals = argument.firstIndex(of: "="), let option = optionsByName[String(argument[..<equals])] {
                try add(String(argument[argument.index(after: equals)...]), to: option)
            } else if spec.takesMorePositionals && !argument.hasPrefix("--") {
                // `-tag:pasta`: a query's term left out, not an option.
                positionals.append(argument)
            } else {
                let name = String(argument.prefix { $0 != "=" })
                let near = Suggestion.closest(to: name, among: spec.flags.map(\.name) + spec.options.map(\.name) + ["--help"])
                throw UsageError(description: "unknown option '\(argument)'" + (near.map { "; did you mean '\($0)'?" } ?? ""))
            }
        }
        if spec.leadsWithFolder, let folder = defaultFolder.path {
            let tooFew = positionals.count < spec.positionals.lowerBound
            // `folio query tag:pasta OR tag:bread`: the query's words, not a folder and a query.
            let queryOnly = spec.takesMorePositionals && !positionals.isEmpty && !isFolder(positionals[0])
            if tooFew || queryOnly { positionals.insert(folder, at: 0) }
        }
        guard spec.positionals.contains(positionals.count) || (spec.takesMorePositionals && positionals.count > spec.positionals.upperBound) else {
            let hint = spec.leadsWithFolder && positionals.count < spec.positionals.lowerBound && defaultFolder.path == nil
                ? " (no folio.yaml here or above, and FOLIO_DIR is not set, so DIR cannot be left out)" : ""
            throw UsageError(description: "expected \(spec.positionalNames), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")" + hint)
        }
    }
}
