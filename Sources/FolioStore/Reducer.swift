import Foundation
import FolioFormat
import FolioModel

/// The one pure function from (state, action) to new state: it changes the state
/// and says which files to write or delete, but touches no disk itself.
public enum Reducer {
    /// What one action did.
    public struct Outcome: Sendable {
        /// What changed in the state.
        public var changes = ChangeSet()
        /// The writes and deletes to carry out.
        public var effects: [Effect] = []
        /// Why parts of the action were refused.
        public var errors: [StoreError] = []
    }

    /// Applies `action` to `state`. `contents` holds the bytes of the files the action
    /// edits (``StoreState/filesRead(by:)`` names them; the caller reads them, an effect):
    /// an edit of a file not there, or whose bytes are no longer the record's, is refused
    /// as changed on disk.
    public static func reduce(_ state: inout StoreState, _ action: Action, contents: [String: [UInt8]]) -> Outcome {
        var outcome = Outcome()
        switch action {
        case .disk(let change):
            matchDisk(change, &state, &outcome)
        case .todos(let todos):
            reduceTodos(todos, &state, contents, &outcome)
        case .workouts(let workouts):
            reduceWorkouts(workouts, &state, contents, &outcome)
        case .records(let records):
            reduceRecords(records, &state, contents, &outcome)
        }
        return outcome
    }

    // MARK: - Helpers

    /// `order` one step past `n`, staying at `n` at Int's ends: an `order:` a file
    /// holds may be any integer, and must not make the reducer trap.
    static func beside(_ n: Int, by step: Int) -> Int {
        let (value, overflow) = n.addingReportingOverflow(step)
        return overflow ? n : value
    }

    /// Whether a record an app adds (or saves at `path`) has no problem; otherwise each
    /// problem is reported, and nothing is written.
    static func accepts(_ problems: [String], adding kind: String, _ outcome: inout Outcome) -> Bool {
        accepts(problems, verb: "add", kind, at: nil, &outcome)
    }

    static func accepts(_ problems: [String], saving kind: String, at path: String, _ outcome: inout Outcome) -> Bool {
        accepts(problems, verb: "save", kind, at: path, &outcome)
    }

    private static func accepts(_ problems: [String], verb: String, _ kind: String, at path: String?, _ outcome: inout Outcome) -> Bool {
        for problem in problems { outcome.errors.append(StoreError(.invalidRecord, path: path, "cannot \(verb) the \(kind): \(problem)")) }
        return problems.isEmpty
    }

    /// Whether `path` holds a record of `kind`, so that a todo's action never writes into
    /// a recipe (nor deletes one); otherwise the refusal is reported.
    static func isRecord(_ path: String, of kind: Kind, in state: StoreState, _ outcome: inout Outcome) -> Bool {
        guard let record = state[path] else {
            outcome.errors.append(.noSuchRecord(path))
            return false
        }
        if let error = record.error {
            outcome.errors.append(.unparseable(path, error))
            return false
        }
        guard record.kind == kind else {
            outcome.errors.append(StoreError(.wrongKind, path: path, "this is a \(record.kind.rawValue), not a \(kind.rawValue): nothing was changed"))
            return false
        }
        return true
    }

    /// Writes a new file for a record in its kind's folder, under a name made from `title`.
    static func create(_ title: String, kind: Kind, in state: inout StoreState, _ outcome: inout Outcome, make: () throws -> Document) {
        create(title, in: kind.folder, in: &state, &outcome, make: make)
    }

    /// Writes a new file for a record in `folder`, under a name made from `title` (or
    /// `named`, a file name the app picked: see ``fileName(_:)``).
    static func create(
        _ title: String, named: (stem: String, extension: String)? = nil, in folder: String, in state: inout StoreState, _ outcome: inout Outcome,
        make: () throws -> Document
    ) {
        do {
            let document = try make()
            let prefix = folder.isEmpty ? "" : folder + "/"
            let path = named.map { uniquePath(prefix + $0.stem, extension: $0.extension, in: state) } ?? uniquePath(prefix + slug(title), in: state)
            state.put(StoreState.prepare(path: path, document: document, folders: state.kindRules.folders), bytes: document.bytes)
            outcome.changes.added.append(path)
            outcome.effects.append(.write(path: path, bytes: document.bytes, replacing: nil))
        } catch {
            outcome.errors.append(StoreError(.invalidEdit, path: nil, "\(error)"))
        }
    }

    /// Applies an edit to a record's document (its bytes from `contents`, or those the
    /// state still holds unwritten); refuses files that do not parse.
    static func edit(_ path: String, in state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome, change: (Document) throws -> Document) {
        guard let record = state[path] else {
            return outcome.errors.append(.noSuchRecord(path))
        }
        if let error = record.error { return outcome.errors.append(.unparseable(path, error)) }
        // The bytes the valid record was parsed from parse again; were they ever not to,
        // refusing the edit as changed on disk writes nothing, which is safe.
        guard let bytes = state.heldBytes(of: record) ?? contents[record.path], Fingerprint(bytes) == record.fingerprint,
              let document = try? Document(bytes: bytes, path: record.path)
        else {
            return outcome.errors.append(.changedOnDisk(path))
        }
        do {
            let updated = try change(document)
            guard updated.bytes != document.bytes else { return }
            state.put(StoreState.prepare(path: path, document: updated, folders: state.kindRules.folders), bytes: updated.bytes)
            outcome.changes.updated.append(path)
            // The keys set, changed or removed, each once for the action.
            let before = document.fields, after = updated.fields
            var keys = outcome.changes.changedFields[path] ?? []
            for key in after.keys + before.keys.filter({ after[$0] == nil }) where before[key] != after[key] && !keys.contains(key) { keys.append(key) }
            if !keys.isEmpty { outcome.changes.changedFields[path] = keys }
            outcome.effects.append(.write(path: path, bytes: updated.bytes, replacing: record.fingerprint))
        } catch let refused as RefusedEdit {
            outcome.errors.append(StoreError(.invalidRecord, path: path, refused.description))
        } catch {
            outcome.errors.append(StoreError(.invalidEdit, path: path, "\(error)"))
        }
    }

    static func delete(_ path: String, in state: inout StoreState, _ outcome: inout Outcome) {
        guard let record = state[path] else {
            return outcome.errors.append(.noSuchRecord(path))
        }
        state.remove(path)
        outcome.changes.removed.append(path)
        outcome.effects.append(.delete(path: path, expecting: record.fingerprint))
    }

    /// Puts the workout list in `order`, telling observers when that changed it.
    static func order(_ order: WorkoutOrder, in state: inout StoreState, _ outcome: inout Outcome) {
        guard state.workoutOrder != order else { return }
        let before = state.workouts.map(\.path)
        state.workoutOrder = order
        if state.workouts.map(\.path) != before { outcome.changes.reordered.append(.workout) }
    }

    /// Writes positions 1…n as `order` into the todos whose order changed.
    static func writeOrder(_ list: [Record], in state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome) {
        if list.map(\.path) != state.todos.map(\.path) { outcome.changes.reordered.append(.todo) }
        for (position, record) in list.enumerated() where record.order != position + 1 {
            edit(record.path, in: &state, contents, &outcome) { document in
                var todo = Todo(document)
                todo.order = position + 1
                return try todo.updating(document)
            }
        }
    }

    /// A file name from a title: lowercase ASCII letters and digits joined by dashes.
    static func slug(_ title: String) -> String {
        let words = TextFolding.words(title).map { String($0.unicodeScalars.filter(\.isASCII)) }.filter { !$0.isEmpty }
        let joined = words.joined(separator: "-")
        return joined.isEmpty ? "untitled" : String(joined.prefix(60))
    }

    static func uniquePath(_ stem: String, extension ext: String = "md", in state: StoreState) -> String {
        var path = stem + "." + ext
        var n = 2
        while state[path] != nil {
            path = "\(stem)-\(n).\(ext)"
            n += 1
        }
        return path
    }

    /// A name an app picked for a new record's file, as its stem and extension: `2026-12-01
    /// run` is `2026-12-01 run.md`, `soup.markdown` stays so; nil for what is no plain
    /// Markdown file name in one folder (empty, with `/`, hidden, or `.` and `..`).
    static func fileName(_ name: String) -> (stem: String, extension: String)? {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !name.contains("\0") else { return nil }
        for ext in ["md", "markdown"] where name.lowercased().hasSuffix("." + ext) && name.count > ext.count + 1 {
            return (String(name.dropLast(ext.count + 1)), String(name.suffix(ext.count)))
        }
        return (name, "md")
    }
}
