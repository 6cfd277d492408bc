import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio add DIR KIND --title TITLE [--date D] [--priority N] [--field KEY=VALUE]…`.
enum AddCommand: FolioCommand {
    static let name = "add"
    static let summary = "add a record: folio add DIR todo --title \"Buy milk\" --priority 2"
    static let about = """
        Writes a new file for a \(kindList) in KIND's folder (\(kinds.map { $0.folder + "/" }.joined(separator: ", ")))
        and prints its path; KIND may also be a kind the folder's folio.yaml declares
        (kinds: book: …), written in its folder with kind: first, title: and the
        fields given, in one write, and refused when it breaks the declaration. Each --field sets one more front-matter key (values are
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
    static let title = Option<String>("--title", "TITLE", help: "the title (a workout's name, a quote's text)", required: true)
    static let date = Option<String>("--date", "D", help: "the date, as written (2026-11-01)")
    static let priority = Option<Int>("--priority", "N", help: "a todo's priority", format: IntFormat(said: "a whole number"))
    static let field = Option<FieldAssignment>("--field", "KEY=VALUE", help: "one more front-matter key, typed as YAML; once per key")
    static let dir = Positional("DIR", at: 0)
    static let kind = Positional("KIND", at: 1)
    static let arguments = ArgumentSpec(
        options: [title.info, date.info, priority.info, field.info], forms: [[dir, kind]], positionalNames: "DIR and KIND")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let kind = Kind(rawValue: arguments.value(of: Self.kind))
        let store = try await loadStore(arguments.value(of: dir))
        let declared = store.state.kindRules.declared.schemas.keys.sorted()
        guard kinds.contains(kind) || declared.contains(kind) else {
            let others = declared.isEmpty ? "" : " (or one folio.yaml declares: \(declared.map(\.rawValue).joined(separator: ", ")))"
            Output.error("folio add: cannot add a '\(kind)'; KIND is \(kindList)\(others)")
            return ExitCode.usage
        }
        // A title of blanks is no title: refused as one left out.
        let title = try arguments.required(Self.title)
        guard title.contains(where: { !$0.isWhitespace }) else { throw ParsedArguments.missing(Self.title) }
        var extra = YAMLMapping()
        for field in try arguments.values(of: Self.field) {
            // Not YAML (`a: b: c`) is no error: the value is then the text as given.
            extra[field.key] = (try? YAML.parse(field.value).value) ?? .string(field.value)
        }
        if let date = try arguments.value(of: Self.date) { extra["date"] = .string(date) }
        if let priority = try arguments.value(of: Self.priority) { extra["priority"] = .int(priority) }
        if !kinds.contains(kind) {
            // A declared kind: every field in one write, the title first.
            let fields = YAMLMapping([.init(key: "title", value: .string(title))] + extra.entries.filter { $0.key != "title" })
            let result = await store.dispatch(.records(.addRecord(kind: kind, fields: fields)))
            guard result.succeeded, let path = result.createdPath else { return exitStatus(reporting: result.errors) }
            Output.print(path)
            return ExitCode.success
        }
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
