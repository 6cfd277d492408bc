import FolioFormat

/// A workout: `name`, `distance` (km), `date`, `complexity`, and notes (a `notes:` field or the body).
public struct Workout: Sendable, Hashable {
    /// What it was.
    public var name: String
    /// Kilometres.
    public var distance: Double?
    /// When, as text.
    public var date: String?
    /// The complexity as written (`low`, `medium`, `high`; anything else is reported by validation).
    public var complexityText: String?
    /// Notes.
    public var notes: String

    /// The complexity, when it is one of the three.
    public var complexity: Complexity? {
        get { complexityText.flatMap { Complexity(rawValue: $0.lowercased()) } }
        set { complexityText = newValue?.rawValue }
    }

    /// A new workout.
    public init(name: String, distance: Double? = nil, date: String? = nil, complexity: Complexity? = nil, notes: String = "") {
        self.name = name.trimmingCharacters(in: " \t")
        self.distance = distance
        self.date = date
        self.complexityText = complexity?.rawValue
        self.notes = notes
    }

    /// What an app would refuse to save: every problem, each a sentence.
    public var problems: [String] {
        var problems: [String] = []
        if name.trimmingCharacters(in: " \t\r\n").isEmpty { problems.append("a workout needs a name") }
        if let distance, !(distance >= 0) || !distance.isFinite {
            problems.append("a workout's distance must be a number of kilometres, 0 or more (got \(YAMLEmitter.floatText(distance)))")
        }
        if let complexityText, complexity == nil { problems.append("unknown complexity '\(complexityText)': use low, medium or high") }
        return problems
    }

    /// Reads a workout from a document.
    public init(_ document: Document) {
        let fields = document.fields
        name = (fields["name"] ?? fields["title"])?.text ?? ""
        distance = fields["distance"]?.doubleValue
        date = fields["date"]?.text
        complexityText = fields["complexity"]?.text
        notes = fields["notes"]?.text ?? document.body.trimmingCharacters(in: " \t\r\n")
    }

    /// `document` with this workout's changed fields written with minimal edits.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Workout(document)
        var writer = FieldWriter(document: document)
        if name != old.name { try writer.set(firstKey(["name", "title"], in: document), .string(name)) }
        if distance != old.distance { try writer.set("distance", distance.map(YAMLValue.float)) }
        if date != old.date { try writer.set("date", date.map(Todo.dateValue)) }
        if complexityText != old.complexityText { try writer.set("complexity", complexityText.map(YAMLValue.string)) }
        if notes != old.notes {
            if document["notes"] != nil { try writer.set("notes", .string(notes)) } else { try writer.document.setBody(notes + "\n") }
        }
        return writer.document
    }

    /// A new file for this workout.
    public func newDocument() throws(FormatError) -> Document {
        var fields: YAMLMapping = ["name": .string(name), "kind": .string("workout")]
        if let distance { fields["distance"] = .float(distance) }
        if let date { fields["date"] = Todo.dateValue(date) }
        if let complexityText { fields["complexity"] = .string(complexityText) }
        return try Document(fields: fields, body: notes.isEmpty ? "" : notes + "\n")
    }
}
