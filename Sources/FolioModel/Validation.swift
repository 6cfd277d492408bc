import FolioFormat

/// Something an app would refuse to save, found in a file that parses: printed as
/// `FILE:LINE:COL: warning: MESSAGE`, distinct from the parse errors.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where.
    public var location: SourceLocation
    /// What is wrong and what to do.
    public var message: String

    /// `FILE:LINE:COL: warning: MESSAGE`.
    public var description: String { "\(location): warning: \(message)" }
}

/// The validation rules of docs/design.md, "Typed records and validation".
public enum Validation {
    /// What an app would refuse in `document` (a record of `kind`).
    public static func issues(in document: Document, kind: Kind, path: String) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        func at(_ key: String?) -> SourceLocation {
            if let key, let node = document.frontMatterRoot?.pair(forKey: key)?.valueNode { return node.start }
            if let key, let node = document.frontMatterRoot?.pair(forKey: key)?.keyNode { return node.start }
            return SourceLocation(path: path, line: 1, column: 1, offset: 0)
        }
        func report(_ key: String?, _ message: String) {
            var location = at(key)
            location.path = path
            issues.append(ValidationIssue(location: location, message: message))
        }
        switch kind {
        case .recipe:
            let recipe = Recipe(document)
            if recipe.title.isEmpty { report(nil, "a recipe needs a title: add 'title: …'") }
            if recipe.ingredients.isEmpty { report(nil, "a recipe needs ingredients: add an '## Ingredients' list or 'ingredients:'") }
            if recipe.steps.isEmpty { report(nil, "a recipe needs steps: add a '## Steps' list or 'steps:'") }
        case .todo:
            if Todo(document).title.isEmpty { report(nil, "a todo needs a title: add 'title: …'") }
        case .workout:
            let workout = Workout(document)
            if let text = workout.complexityText, workout.complexity == nil {
                report("complexity", "unknown complexity '\(text)': use low, medium or high")
            }
            if let distance = workout.distance, distance < 0 {
                report("distance", "distance \(YAMLEmitter.floatText(distance)) is negative: give the kilometres run")
            }
        default:
            break
        }
        for key in ["date", "due"] {
            if let value = document[key], value != .null, value.calendarDate == nil {
                report(key, "'\(value.text ?? "")' is not a date: write it as YYYY-MM-DD")
            }
        }
        return issues
    }
}
