import FolioFormat
import FolioStore

extension RecordChangeEvent {
    /// The event as one JSON object on a line, for `folio watch --json`:
    /// `{"event":"moved","from":…,"to":…,"title":…,"kind":…}`, removed (path), added
    /// (path, title), updated (path, title, changes: key, new, old), invalid (path,
    /// error), settings (path).
    var json: String {
        let event: YAMLMapping
        switch self {
        case .moved(let from, let to, let title, _):
            var moved: YAMLMapping = ["event": .string("moved"), "from": .string(from), "to": .string(to)]
            if let title, let kind = kindText {
                moved["title"] = .string(title)
                moved["kind"] = .string(kind)
            }
            event = moved
        case .removed(let path): event = ["event": .string("removed"), "path": .string(path)]
        case .invalid(let path, let error): event = ["event": .string("invalid"), "path": .string(path), "error": .string(Self.text(of: error))]
        case .added(let path, let title): event = ["event": .string("added"), "path": .string(path), "title": .string(title)]
        case .updated(let path, let title, let changes):
            event = ["event": .string("updated"), "path": .string(path), "title": .string(title), "changes": .sequence(changes.map(Self.json))]
        case .settingsChanged: event = ["event": .string("settings"), "path": .string(Settings.fileName)]
        }
        return YAMLValue.mapping(event).json(indent: nil)
    }

    /// A field's change: its key, its new value unless removed, its old one unless new.
    static func json(_ change: FieldChange) -> YAMLValue {
        var object: YAMLMapping = ["key": .string(change.key)]
        if let new = change.new { object["new"] = new }
        if let old = change.old { object["old"] = old }
        return .mapping(object)
    }

    /// Why a file does not parse, as the text and the JSON tell it: `LOCATION: MESSAGE`.
    static func text(of error: FormatError) -> String { "\(error.location): \(error.message)" }
}
