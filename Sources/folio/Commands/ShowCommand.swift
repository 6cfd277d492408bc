import Foundation
import FolioFormat
import FolioModel
import FolioStore

/// `folio show DIR PATH [--servings N]`: a record printed for reading.
enum ShowCommand: FolioCommand {
    static let name = "show"
    static let summary = "print a record for reading (a recipe scaled with --servings)"
    static let about = """
        Prints the record at PATH (relative to DIR) for reading: its title, its fields
        (key: value, lists joined), then its text. A recipe is printed as a recipe —
        time and servings, its ingredients and numbered steps — and with --servings N
        its quantities are scaled to N servings (when it says how many it serves). A
        file that does not parse is said with its error (exit 1).
        """
    static let dir = Positional("DIR", at: 0)
    static let path = Positional("PATH", at: 1)
    static let servings = Option<Int>("--servings", "N", help: "scale a recipe's quantities to N servings", format: IntFormat(range: 1...10_000, said: "a whole number from 1 to 10000"))
    static let arguments = ArgumentSpec(options: [servings.info], forms: [[dir, path]], positionalNames: "DIR and PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let folder = arguments.value(of: dir), path = arguments.value(of: Self.path)
        let store = try await loadStore(folder)
        guard let record = store.state[path] else {
            Output.error("\(shown(path)): error: no record at this path in \(shown(folder)) (folio list \(Shell.quoted(folder)) lists them)")
            return ExitCode.problems
        }
        if let error = record.error {
            Output.error("\(error.location): error: \(error.message)")
            return ExitCode.problems
        }
        let wanted = try arguments.value(of: servings)
        if record.kind == .recipe, var recipe = store.state.recipe(at: path) {
            if let wanted {
                guard let scaled = recipe.scaled(toServings: wanted) else {
                    Output.error("folio show: \(shown(path)) does not say how many it serves (servings:), so it cannot be scaled")
                    return ExitCode.problems
                }
                recipe = scaled
            }
            Output.print(lines(of: recipe).joined(separator: "\n"))
            return ExitCode.success
        }
        if wanted != nil {
            Output.error("folio show: --servings scales a recipe; \(shown(path)) is a \(record.kind.rawValue)")
            return ExitCode.usage
        }
        var lines = [shown(record.title), String(repeating: "=", count: record.title.count)]
        for entry in store.state.fields(of: record).entries where entry.key != "title" {
            lines.append("\(shown(entry.key)): \(shown(text(of: entry.value)))")
        }
        let body = store.state.document(of: record)?.body.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !body.isEmpty { lines += ["", shown(body)] }
        Output.print(lines.joined(separator: "\n"))
        return ExitCode.success
    }

    /// A recipe for reading: title, time and servings, summary, ingredients, steps.
    static func lines(of recipe: Recipe) -> [String] {
        var lines = [shown(recipe.title), String(repeating: "=", count: recipe.title.count)]
        let facts = [recipe.time.map { "time \($0)" }, recipe.servings.map { "serves \($0)" }, recipe.tags.isEmpty ? nil : "tags: " + recipe.tags.joined(separator: ", ")].compactMap { $0 }
        if !facts.isEmpty { lines.append(shown(facts.joined(separator: " · "))) }
        if !recipe.summary.isEmpty { lines += ["", shown(recipe.summary)] }
        if !recipe.ingredients.isEmpty {
            lines += ["", "Ingredients"] + recipe.ingredients.map { "  - " + shown([$0.quantity?.text, $0.name].compactMap { $0 }.joined(separator: " ")) }
        }
        if !recipe.steps.isEmpty {
            lines += ["", "Steps"] + recipe.steps.enumerated().map { "  \($0.offset + 1). " + shown($0.element) }
        }
        return lines
    }

    /// A field's value as text: a list joined with commas.
    static func text(of value: YAMLValue) -> String {
        if let items = value.sequenceValue { return items.map(text(of:)).joined(separator: ", ") }
        return value.text ?? value.json(indent: nil)
    }
}
