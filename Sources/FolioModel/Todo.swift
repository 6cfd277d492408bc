import Foundation
import FolioFormat

/// A todo: `title`, `date`, `done`, `priority`, `order` (its manual position), and the body as notes.
public struct Todo: Sendable, Hashable {
    /// What to do.
    public var title: String
    /// When: a date or date-time, as text (`2026-11-30`, `2026-11-30T08:00:00`).
    public var date: String?
    /// Whether it is done.
    public var done: Bool
    /// Higher is more urgent.
    public var priority: Int?
    /// The manual position in the list.
    public var order: Int?
    /// The body.
    public var notes: String

    static let dateKeys = ["date", "due"]
    static let doneKeys = ["done", "completed"]

    /// A new todo.
    public init(title: String, date: String? = nil, done: Bool = false, priority: Int? = nil, order: Int? = nil, notes: String = "") {
        self.title = title.trimmingCharacters(in: " \t")
        self.date = date
        self.done = done
        self.priority = priority
        self.order = order
        self.notes = notes
    }

    /// ``date`` as an instant: its time of day when it has one (a date alone is
    /// midnight UTC, a time without a zone UTC); nil when it is not a date. Set, it is
    /// written as an ISO 8601 date-time in UTC (`2026-11-30T08:00:00Z`).
    public var dueDate: Date? {
        get { date.flatMap { YAMLValue.string($0).date } }
        set { date = newValue.map(Todo.isoText) }
    }

    /// `2026-11-30T08:00:00Z` (whole seconds, UTC), computed without a formatter.
    static func isoText(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let day = CalendarDate(daysSinceEpoch: days)
        let time = seconds - days * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(day)T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    /// What an app would refuse to save: every problem, each a sentence.
    public var problems: [String] {
        title.trimmingCharacters(in: " \t\r\n").isEmpty ? ["a todo needs a title"] : []
    }

    /// Reads a todo from a document.
    public init(_ document: Document) {
        let fields = document.fields
        title = (fields["title"] ?? fields["name"])?.text ?? ""
        date = Todo.dateKeys.lazy.compactMap { fields[$0]?.text }.first
        done = Todo.doneKeys.lazy.compactMap { fields[$0]?.boolValue }.first ?? false
        priority = fields["priority"]?.intValue
        order = fields["order"]?.intValue
        notes = document.body.trimmingCharacters(in: " \t\r\n")
    }

    /// `document` with this todo's changed fields written with minimal edits.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Todo(document)
        var writer = FieldWriter(document: document)
        if title != old.title { try writer.set(firstKey(["title", "name"], in: document), .string(title)) }
        if date != old.date { try writer.set(firstKey(Todo.dateKeys, in: document), date.map(Todo.dateValue)) }
        if done != old.done { try writer.set(firstKey(Todo.doneKeys, in: document), .bool(done)) }
        if priority != old.priority { try writer.set("priority", priority.map(YAMLValue.int)) }
        if order != old.order { try writer.set("order", order.map(YAMLValue.int)) }
        if notes != old.notes { try writer.document.setBody(notes.isEmpty ? "" : notes + "\n") }
        return writer.document
    }

    /// A date written plain when it is one (`2026-11-30`), quoted otherwise.
    static func dateValue(_ text: String) -> YAMLValue {
        ScalarResolver.resolvePlain(text) == .timestamp(text) ? .timestamp(text) : .string(text)
    }

    /// A new file for this todo.
    public func newDocument() throws(FormatError) -> Document {
        var fields: YAMLMapping = ["title": .string(title), "kind": .string("todo")]
        if let date { fields["date"] = Todo.dateValue(date) }
        fields["done"] = .bool(done)
        if let priority { fields["priority"] = .int(priority) }
        if let order { fields["order"] = .int(order) }
        return try Document(fields: fields, body: notes.isEmpty ? "" : notes + "\n")
    }
}
