import FolioFolder
import FolioFormat
import FolioModel

extension StoreState {
    /// The recipes that parse, by path; conflict copies are in ``conflicts``, not here.
    public var recipes: [Record] { listed(.recipe) }

    /// The quotes that parse, by path (conflict copies apart, as for ``recipes``).
    public var quotes: [Record] { listed(.quote) }

    /// The records of `kind` a list shows: those that parse and are no other tool's (or
    /// Folio's) conflict copy, by path. The copies are listed with their files in
    /// ``conflicts``: a list that showed them would show one recipe twice.
    public func listed(_ kind: Kind) -> [Record] {
        let names = conflictCopyNames
        return records(of: kind).filter { $0.isValid && names.originalOfAnyCopy($0.path) == nil }
    }

    /// How conflict copies are named in this folder: every tool's unmistakable names, and
    /// the patterns `folio.yaml`'s `conflictCopies:` adds (OneDrive's, iCloud's, Google
    /// Drive's, one's own).
    public var conflictCopyNames: ConflictCopyNames { settings.conflictCopyNames }

    /// The path of the file `record` is a conflict copy of, by this folder's names
    /// (``Record/conflictCopyOf`` knows only the unmistakable ones).
    public func conflictCopyOf(_ record: Record) -> String? { conflictCopyNames.originalOfAnyCopy(record.path) }

    /// The recipe at `path`, read from its file; nil when there is none, it is of another
    /// kind, or the file no longer holds what the store read.
    public func recipe(at path: String) -> Recipe? { typed(path, .recipe) { Recipe($0) } }

    /// The todo at `path` (see ``recipe(at:)``).
    public func todo(at path: String) -> Todo? { typed(path, .todo) { Todo($0) } }

    /// The workout at `path` (see ``recipe(at:)``).
    public func workout(at path: String) -> Workout? { typed(path, .workout) { Workout($0) } }

    /// The quote at `path` (see ``recipe(at:)``).
    public func quote(at path: String) -> Quote? { typed(path, .quote) { Quote($0) } }

    private func typed<T>(_ path: String, _ kind: Kind, _ make: (Document) -> T) -> T? {
        guard let record = self[path], record.kind == kind else { return nil }
        return document(of: record).map(make)
    }
}

extension StoreState: Equatable {
    /// Whether two states hold the same records (the same paths with the same bytes), the
    /// same settings and the same workout order: what a Redux-style test compares after
    /// running the reducer. How each is indexed inside does not count.
    public static func == (a: StoreState, b: StoreState) -> Bool {
        guard a.count == b.count, a.settings == b.settings, a.settingsBytes == b.settingsBytes, a.workoutOrder == b.workoutOrder else { return false }
        return a.index.idByPath.keys.allSatisfy { path in a[path] == b[path] }
    }
}
