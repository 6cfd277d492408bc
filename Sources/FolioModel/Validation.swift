import FolioFormat

/// Something an app would refuse to save, found in a file that parses: printed as
/// `FILE:LINE:COL: warning: MESSAGE`, distinct from the parse errors.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where.
    public var location: SourceLocation
    /// What is wrong and what to do.
    public var message: String
    /// The front-matter field it is about (`feel`; `items` for `items[2].amount`), nil
    /// when it is about the record as a whole.
    public var field: String? = nil

    /// `FILE:LINE:COL: warning: MESSAGE`.
    public var description: String { "\(location): warning: \(message)" }
}

/// The validation rules of docs/design.md, "Typed records and validation".
public enum Validation {
    /// What an app would refuse in `document` (a record of `kind`): the built-in rules,
    /// and those of `declared`, the kind's declaration in `folio.yaml`, when it has one.
    public static func issues(in document: Document, kind: Kind, path: String, declared: KindSchema? = nil) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let report = reporter(document, path) { issues.append($0) }
        switch kind {
        case .recipe:
            let recipe = Recipe.essentials(of: document)
            if !recipe.title { report("title", "a recipe needs a title: add 'title: …'") }
            if !recipe.ingredients { report(nil, "a recipe needs ingredients: add an '## Ingredients' list or 'ingredients:'") }
            if !recipe.steps { report(nil, "a recipe needs steps: add a '## Steps' list or 'steps:'") }
        case .todo:
            if Todo(document).title.isEmpty { report("title", "a todo needs a title: add 'title: …'") }
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
        for key in ["date", "due"] where declared?.fields.contains(where: { $0.name == key }) != true {
            if let value = document[key], value != .null, value.calendarDate == nil {
                report(key, "'\(value.text ?? "")' is not a date: write it as YYYY-MM-DD")
            }
        }
        if let declared { declared.check(document, report) }
        return issues
    }

    /// Reports a problem at a front-matter key's value (or the file's start, for a key
    /// the front matter does not have: the problem is still about that field).
    static func reporter(_ document: Document, _ path: String, _ add: @escaping (ValidationIssue) -> Void) -> (String?, String) -> Void {
        { key, message in
            let pair = key.flatMap { document.frontMatterRoot?.pair(forKey: $0) }
            var location = pair?.valueNode.start ?? pair?.keyNode.start ?? SourceLocation(path: path, line: 1, column: 1, offset: 0)
            location.path = path
            add(ValidationIssue(location: location, message: message, field: key))
        }
    }
}

extension KindSchema {
    /// Reports what `document` gets wrong against this declaration.
    func check(_ document: Document, _ report: (String?, String) -> Void) {
        let name = kind.rawValue
        for field in fields {
            guard let value = document[field.name], value != .null, value.text != "", value.sequenceValue?.isEmpty != true else {
                if field.required { report(field.name, "a \(name) needs '\(field.name):' (folio.yaml makes it required): add '\(field.name): …'") }
                continue
            }
            let shown = value.text.map { "'\($0)'" } ?? "this value"
            if let type = field.type, !type.accepts(value) {
                report(field.name, "\(field.name) \(shown) is not \(type.described): folio.yaml declares \(name).\(field.name) as \(type.rawValue)")
                continue
            }
            if let values = field.values {
                let allowed = Set(values.map { $0.lowercased() })
                for item in value.sequenceValue ?? [value] where !allowed.contains((item.text ?? "").lowercased()) {
                    report(field.name, "\(field.name) '\(item.text ?? "")' is not one of \(values.joined(separator: ", ")) (folio.yaml, \(name).\(field.name))")
                }
            }
            if let (bound, above) = field.outOfRange(value) {
                let isDate = value.calendarDate != nil
                let beyond = above ? (isDate ? "after" : "more than") : (isDate ? "before" : "less than")
                let limit = above ? (isDate ? "the latest" : "the most") : (isDate ? "the earliest" : "the least")
                report(field.name, "\(field.name) \(shown) is \(beyond) \(bound), \(limit) folio.yaml allows for \(name).\(field.name)")
            }
        }
    }
}

extension KindSchema.Field {
    /// The bound `value` passes, and whether it is above it; nil when within its range.
    func outOfRange(_ value: YAMLValue) -> (String, Bool)? {
        func number(_ v: YAMLValue) -> Double? { type == .duration ? TimeSpan(v).map { Double($0.seconds) } : v.doubleValue }
        if let date = value.calendarDate {
            if let low = minimum?.calendarDate, date < low { return (low.description, false) }
            if let high = maximum?.calendarDate, date > high { return (high.description, true) }
        } else if let n = number(value) {
            if let low = minimum, let bound = number(low), n < bound { return (low.text ?? "", false) }
            if let high = maximum, let bound = number(high), n > bound { return (high.text ?? "", true) }
        }
        return nil
    }
}

extension KindSchema.FieldType {
    /// Whether `value` reads as this type, as the typed views read it.
    func accepts(_ value: YAMLValue) -> Bool {
        switch self {
        case .text: value.text != nil
        case .integer: value.intValue != nil
        case .number: value.doubleValue != nil
        case .boolean: value.boolValue != nil
        case .date: value.calendarDate != nil
        case .duration: TimeSpan(value) != nil
        case .list: value.mappingValue == nil
        }
    }

    /// `a whole number`, `a date (YYYY-MM-DD)`…
    var described: String {
        switch self {
        case .text: "text"
        case .integer: "a whole number"
        case .number: "a number"
        case .boolean: "yes or no"
        case .date: "a date (YYYY-MM-DD)"
        case .duration: "a duration (15m, 1h30m)"
        case .list: "a list"
        }
    }
}
