import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// Loads the store of a folder for a command, reporting what cannot be read; a folder
/// that is not there ends the command with 2, one that cannot be read with 3.
@MainActor
func loadStore(_ root: String) async throws(CommandExit) -> Store {
    do {
        let store = try await Store.load(root)
        for problem in store.loadProblems { Output.error(problem.description) }
        return store
    } catch {
        Output.error(error.description)
        throw CommandExit(status: ExitCode.of(error))
    }
}

/// Prints the store's errors and gives the exit status they mean: the gravest of
/// theirs (3 when the disk refused a write, else 1), 0 when there are none.
func exitStatus(reporting errors: [StoreError]) -> Int32 {
    for error in errors { Output.error(error.description) }
    return errors.map(ExitCode.of).max() ?? ExitCode.success
}

/// Prints records as aligned columns, or with `--json` as one JSON array; a conflict
/// copy is marked with the file it is a version of (`  (conflict copy of r.md)`, or
/// `"conflictOf": "r.md"`).
@MainActor
func printRecords(_ records: [Record], of store: Store, json: Bool) {
    if json {
        let values = records.map { record -> YAMLValue in
            var object: YAMLMapping = [
                "path": .string(record.path), "kind": .string(record.kind.rawValue), "title": .string(record.title),
                "fields": .mapping(store.state.fields(of: record)),
            ]
            if let error = record.error { object["error"] = .string("\(error.location): \(error.message)") }
            if let original = record.conflictCopyOf { object["conflictOf"] = .string(original) }
            return .mapping(object)
        }
        Output.print(YAMLValue.sequence(values).json())
        return
    }
    let rows = records.map { record -> [String] in
        [record.path, record.isValid ? record.kind.rawValue : "invalid", record.error.map { "\($0.location): \($0.message)" } ?? record.title]
    }
    let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
    for (row, record) in zip(rows, records) {
        Output.print(row[0].padding(toLength: widths[0] + 2, withPad: " ", startingAt: 0)
            + row[1].padding(toLength: widths[1] + 2, withPad: " ", startingAt: 0) + row[2]
            + (record.conflictCopyOf.map { "  (conflict copy of \($0))" } ?? ""))
    }
}

/// The kind `--kind` names, when Folio knows it or the folder holds records of it;
/// otherwise nil, with an error listing the kinds there are.
@MainActor func kindOption(_ text: String, in store: Store, command: String) -> Kind? {
    let kind = Kind(rawValue: text)
    let kinds = Set([Kind.recipe, .todo, .workout, .quote, .note]).union(store.state.records.values.map(\.kind))
    guard kinds.contains(kind) else {
        Output.error("folio \(command): unknown kind '\(text)': the kinds are \(kinds.sorted().map(\.rawValue).joined(separator: ", "))")
        return nil
    }
    return kind
}

/// `folio list DIR [--kind K] [--json]`.
enum ListCommand: FolioCommand {
    static let name = "list"
    static let summary = "list the records of a folder"
    static let help = """
        usage: folio list DIR [--kind KIND] [--json]

        Lists every Markdown file under DIR in path order: its path, kind and title,
        files that do not parse included (with their error). A conflict copy (of
        Syncthing, Dropbox, Nextcloud or folio sync) ends with
        '  (conflict copy of FILE)'. --json prints one JSON array of objects with path,
        kind, title, fields and, for files that do not parse, error; for conflict
        copies, conflictOf (the file). Exits 1 when a file does not parse.
        """
    static let arguments = ArgumentSpec(flags: ["--json"], options: ["--kind"], positionals: 1...1, positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.positionals[0])
        var records = store.state.records.values.sorted { $0.path < $1.path }
        if let text = arguments.options["--kind"]?.last {
            guard let kind = kindOption(text, in: store, command: name) else { return ExitCode.usage }
            records = records.filter { $0.kind == kind }
        }
        printRecords(records, of: store, json: arguments.flags.contains("--json"))
        return records.contains { !$0.isValid } ? ExitCode.problems : ExitCode.success
    }
}

/// `folio query DIR QUERY [--json]`.
enum QueryCommand: FolioCommand {
    static let name = "query"
    static let summary = "find records: 'kind:recipe tag:pasta time<30m sort:-date'"
    static let help = """
        usage: folio query DIR QUERY [--json]

        QUERY is words (full text over titles and bodies, case and accents ignored),
        "quoted phrases", key:value for any front-matter key (kind:, tag:, done:, …),
        comparisons key<value, key<=value, key>value, key>=value on numbers, durations
        (30m) and dates (2026-11-01), sort:key or sort:-key, and limit:N.
        A malformed query exits 2 with a caret under the character where it went wrong.
        """
    static let arguments = ArgumentSpec(flags: ["--json"], positionals: 2...2, positionalNames: "DIR and QUERY")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let query: Query
        do { query = try Query(parsing: arguments.positionals[1]) } catch {
            Output.error("folio query: \(error)")
            return ExitCode.usage
        }
        let store = try await loadStore(arguments.positionals[0])
        printRecords(store.state.records(matching: query), of: store, json: arguments.flags.contains("--json"))
        return ExitCode.success
    }
}

/// `folio add DIR KIND --title T [--field key=value …]`.
enum AddCommand: FolioCommand {
    static let name = "add"
    static let summary = "add a record: folio add DIR todo --title \"Buy milk\" --priority 2"
    static let help = """
        usage: folio add DIR KIND --title TITLE [--date D] [--priority N] [--field KEY=VALUE]...

        Writes a new file for a \(kindList) in KIND's folder (\(kinds.map { $0.folder + "/" }.joined(separator: ", ")))
        and prints its path. Each --field sets one more front-matter key (values are
        typed as YAML: 2 is a number, true a boolean). Recipes are added with
        --field ingredients=… and steps=… lists, and refused when a recipe would lack a
        title, ingredients or steps; a workout takes distance, date and complexity
        (low, medium or high), a quote author and source.
        """
    /// The kinds `add` makes, in the order help lists them.
    static let kinds: [Kind] = [.todo, .workout, .quote, .recipe]
    static var kindList: String { kinds.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + kinds.last!.rawValue }
    /// The `--field` keys each kind's typed record takes; every other key is set as given.
    static let typedKeys: [Kind: Set<String>] = [
        .todo: ["date", "priority"], .workout: ["distance", "date", "complexity"], .quote: ["author", "source"],
        .recipe: ["summary", "time", "servings", "tags", "ingredients", "steps"],
    ]
    static let arguments = ArgumentSpec(
        options: ["--title", "--date", "--priority", "--field"], positionals: 2...2, positionalNames: "DIR and KIND")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let kind = Kind(rawValue: arguments.positionals[1])
        guard kinds.contains(kind) else {
            Output.error("folio add: cannot add a '\(kind)'; KIND is \(kindList)")
            return ExitCode.usage
        }
        guard let title = arguments.options["--title"]?.last, title.contains(where: { !$0.isWhitespace }) else {
            Output.error("folio add: --title is required\n\n\(help)")
            return ExitCode.usage
        }
        var extra = YAMLMapping()
        for field in arguments.options["--field"] ?? [] {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                Output.error("folio add: --field needs KEY=VALUE, got '\(field)'")
                return ExitCode.usage
            }
            let text = String(field[field.index(after: equals)...])
            let value = (try? YAML.parse(text).value) ?? .string(text)
            extra[String(field[..<equals])] = value
        }
        if let date = arguments.options["--date"]?.last { extra["date"] = .string(date) }
        if let priority = arguments.options["--priority"]?.last {
            guard let number = Int(priority) else {
                Output.error("folio add: --priority needs a whole number, got '\(priority)'")
                return ExitCode.usage
            }
            extra["priority"] = .int(number)
        }
        let store = try await loadStore(arguments.positionals[0])
        let action: Action
        switch kind {
        case .todo:
            action = .addTodo(Todo(title: title, date: extra["date"]?.text, priority: extra["priority"]?.intValue))
        case .workout:
            var workout = Workout(name: title, distance: extra["distance"]?.doubleValue, date: extra["date"]?.text)
            // As written, so that an unknown complexity is refused rather than dropped.
            workout.complexityText = extra["complexity"]?.text
            action = .addWorkout(workout)
        case .quote:
            action = .addQuote(Quote(text: title, author: extra["author"]?.text, source: extra["source"]?.text))
        case .recipe:
            action = .addRecipe(Recipe(
                title: title, summary: extra["summary"]?.text ?? "", time: extra["time"].flatMap(TimeSpan.init),
                servings: extra["servings"]?.intValue, tags: extra["tags"]?.stringList ?? [],
                ingredients: (extra["ingredients"]?.stringList ?? []).map { Ingredient(line: $0) },
                steps: extra["steps"]?.stringList ?? []))
        default:
            return ExitCode.usage
        }
        let result = await store.dispatch(action)
        guard result.succeeded else { return exitStatus(reporting: result.errors) }
        guard let path = result.createdPath else { return ExitCode.problems }
        // Fields the typed view does not know are set with minimal edits.
        let known = typedKeys[kind] ?? []
        var fieldErrors: [StoreError] = []
        for entry in extra.entries where !known.contains(entry.key) {
            fieldErrors += await store.dispatch(.setField(path: path, key: entry.key, value: entry.value)).errors
        }
        Output.print(path)
        return exitStatus(reporting: fieldErrors)
    }
}

/// `folio done DIR PATH`.
enum DoneCommand: FolioCommand {
    static let name = "done"
    static let summary = "tick a todo off"
    static let help = """
        usage: folio done DIR PATH

        Sets 'done: true' in the todo at PATH (relative to DIR), changing that line only.
        """
    static let arguments = ArgumentSpec(positionals: 2...2, positionalNames: "DIR and PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.positionals[0])
        let path = arguments.positionals[1]
        guard let record = store.state[path], record.kind == .todo else {
            Output.error("\(path): error: no todo at this path in \(arguments.positionals[0])")
            return ExitCode.problems
        }
        if record.done == true {
            Output.error("\(path): already done")
            return ExitCode.success
        }
        return exitStatus(reporting: await store.dispatch(.toggleDone(path: path)).errors)
    }
}

/// `folio rm DIR PATH`.
enum RemoveCommand: FolioCommand {
    static let name = "rm"
    static let summary = "delete a record's file"
    static let help = """
        usage: folio rm DIR PATH

        Deletes the record at PATH (relative to DIR), unless it changed on disk since it was read.
        """
    static let arguments = ArgumentSpec(positionals: 2...2, positionalNames: "DIR and PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.positionals[0])
        return exitStatus(reporting: await store.dispatch(.removeRecord(path: arguments.positionals[1])).errors)
    }
}

/// `folio random DIR [--kind K]`.
enum RandomCommand: FolioCommand {
    static let name = "random"
    static let summary = "print one record at random: folio random DIR --kind quote"
    static let help = """
        usage: folio random DIR [--kind KIND] [--json]

        Prints one record of KIND (default: quote) chosen at random: a quote as its
        text and author, anything else as its title and path.
        """
    static let arguments = ArgumentSpec(flags: ["--json"], options: ["--kind"], positionals: 1...1, positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.positionals[0])
        guard let kind = kindOption(arguments.options["--kind"]?.last ?? "quote", in: store, command: name) else { return ExitCode.usage }
        guard let record = store.state.records(of: kind).filter(\.isValid).randomElement() else {
            Output.error("folio random: no \(kind) records in \(arguments.positionals[0])")
            return ExitCode.problems
        }
        if arguments.flags.contains("--json") {
            printRecords([record], of: store, json: true)
        } else if kind == .quote, let document = store.state.document(of: record) {
            let quote = Quote(document)
            Output.print(quote.text + (quote.author.map { "\n  — \($0)" } ?? ""))
        } else {
            Output.print("\(record.title)  (\(record.path))")
        }
        return ExitCode.success
    }
}

/// `folio import-quotes DIR FILE`.
enum ImportQuotesCommand: FolioCommand {
    static let name = "import-quotes"
    static let summary = "import quotes written between #- and -# into quotes/"
    static let help = """
        usage: folio import-quotes DIR FILE

        Reads FILE, in which each quote stands between '#-' and '-#' (line breaks inside
        a quote become spaces; empty quotes are skipped), and writes one file per quote
        in DIR/quotes/. Prints how many it wrote. A quote never closed with '-#' is not
        imported: its line and column are printed and the exit status is 1.
        """
    static let arguments = ArgumentSpec(positionals: 2...2, positionalNames: "DIR and FILE")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let file = arguments.positionals[1]
        let bytes: [UInt8]
        do { bytes = try FileReading.contents(of: file) } catch {
            Output.error("\(error.description)\nfolio import-quotes: cannot read the quotes file")
            return ExitCode.of(error)
        }
        guard let text = UTF8Validation.string(bytes) else {
            Output.error("\(file): error: not UTF-8 text; save it as UTF-8")
            return ExitCode.problems
        }
        let (quotes, unclosedAt) = QuoteImport.read(text)
        if let (line, column) = unclosedAt {
            Output.error("\(file):\(line):\(column): warning: this quote is never closed, so it was not imported: add '-#' at its end")
        }
        guard !quotes.isEmpty else {
            Output.error("\(file): error: no quotes found in \(file) (each quote goes between '#-' and '-#')")
            return ExitCode.problems
        }
        // A new library folder is made on first import.
        try? FileManager.default.createDirectory(atPath: arguments.positionals[0], withIntermediateDirectories: true)
        let store = try await loadStore(arguments.positionals[0])
        var errors: [StoreError] = []
        for quote in quotes { errors += await store.dispatch(.addQuote(quote)).errors }
        Output.print("imported \(quotes.count - errors.count) quote\(quotes.count == 1 ? "" : "s") into \(arguments.positionals[0])/quotes/")
        let status = exitStatus(reporting: errors)
        return unclosedAt == nil ? status : max(status, ExitCode.problems)
    }
}
