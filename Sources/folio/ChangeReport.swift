import FolioFormat
import FolioStore
import FolioSystem

/// How `folio watch` tells what changed: one line per change, in words or as JSON,
/// with the fields that changed. The events, and the front matter remembered to tell
/// them, are the library's (``RecordChangeTracker``); only their wording is here.
@MainActor
struct ChangeReport {
    private var tracker: RecordChangeTracker

    /// Remembers the front matter of every record of `store`, from `reads` (the files as
    /// the store's load read them) when there are any (``RecordChangeTracker/init(state:reads:)``).
    init(store: Store, reads: [FileRead] = []) {
        tracker = RecordChangeTracker(state: store.state, reads: reads)
    }

    /// The lines that report `changes` (text, or JSON objects with `json`).
    mutating func lines(for changes: ChangeSet, in store: Store, json: Bool) -> [String] {
        tracker.events(for: changes, in: store.state).map { json ? $0.json : $0.sentence }
    }

    /// A value as a person reads it: scalars as they are, collections as JSON.
    nonisolated static func display(_ value: YAMLValue) -> String {
        switch value {
        case .string(let text), .timestamp(let text): return text
        case .mapping, .sequence: return value.json(indent: nil)
        default: return value.text ?? value.json(indent: nil)
        }
    }
}
