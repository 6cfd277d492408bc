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

    /// Applies `action` to `state`.
    public static func reduce(_ state: inout StoreState, _ action: Action) -> Outcome {
        var outcome = Outcome()
        switch action {
        case .fileChanged(let path, let bytes):
            if state[path]?.fingerprint == Fingerprint(bytes) { break }
            let existed = state[path] != nil
            state.put(StoreState.prepare(path: path, bytes: bytes), bytes: bytes)
            if existed { outcome.changes.updated.append(path) } else { outcome.changes.added.append(path) }
        case .fileMoved(let from, let to, let bytes):
            guard state[from] != nil, state[to] == nil else {
                // Not a plain move as the state stands: a removal and a change say the same.
                outcome.changes.append(reduce(&state, .fileRemoved(path: from)).changes)
                outcome.changes.append(reduce(&state, .fileChanged(path: to, bytes: bytes)).changes)
                break
            }
            state.remove(from)
            state.put(StoreState.prepare(path: to, bytes: bytes), bytes: bytes)
            outcome.changes.moved.append(.init(from: from, to: to))
        case .fileRemoved(let path):
            if state[path] != nil {
                state.remove(path)
                outcome.changes.removed.append(path)
            }
        case .settingsFileChanged(let bytes):
            let settings = bytes.flatMap { try? Document(yamlBytes: $0, path: Settings.fileName) }.map(Settings.init) ?? Settings()
            state.settingsBytes = bytes
            let keys = settings.changedKeys(from: state.settings)
            state.settings = settings
            if !keys.isEmpty {
                outcome.changes.settingsChanged = true
                outcome.changes.settingKeys = keys
            }

        case .addTodo(var todo):
            guard accepts(todo.problems, adding: "todo", &outcome) else { break }
            todo.order = todo.order ?? beside(state.todos.compactMap(\.order).max() ?? 0, by: 1)
            create(todo.title, kind: .todo, in: &state, &outcome) { try todo.newDocument() }
        case .insertTodoAtTop(var todo):
            guard accepts(todo.problems, adding: "todo", &outcome) else { break }
            // One file written: an order before every other, rather than all renumbered.
            todo.order = beside(state.todos.compactMap(\.order).min() ?? 1, by: -1)
            create(todo.title, kind: .todo, in: &state, &outcome) { try todo.newDocument() }
            outcome.changes.reordered.append(.todo)
        case .toggleDone(let path):
            guard isRecord(path, of: .todo, in: state, &outcome) else { break }
            edit(path, in: &state, &outcome) { document in
                var todo = Todo(document)
                todo.done.toggle()
                return try todo.updating(document)
            }
        case .setDone(let path, let done):
            guard isRecord(path, of: .todo, in: state, &outcome) else { break }
            edit(path, in: &state, &outcome) { document in
                var todo = Todo(document)
                todo.done = done
                return try todo.updating(document)
            }
        case .updateTodo(let path, let todo):
            guard isRecord(path, of: .todo, in: state, &outcome), accepts(todo.problems, saving: "todo", at: path, &outcome) else { break }
            edit(path, in: &state, &outcome) { try todo.updating($0) }
        case .removeTodos(let offsets):
            let list = state.todos
            for offset in offsets where list.indices.contains(offset) { delete(list[offset].path, in: &state, &outcome) }
        case .removeTodo(let path):
            if isRecord(path, of: .todo, in: state, &outcome) { delete(path, in: &state, &outcome) }
        case .removeRecipe(let path):
            if isRecord(path, of: .recipe, in: state, &outcome) { delete(path, in: &state, &outcome) }
        case .removeRecord(let path):
            delete(path, in: &state, &outcome)
        case .moveTodos(let offsets, let destination):
            var list = state.todos
            let moving = offsets.filter { list.indices.contains($0) }.map { list[$0] }
            let before = offsets.filter { $0 < destination }.count
            list = list.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
            list.insert(contentsOf: moving, at: min(max(destination - before, 0), list.count))
            writeOrder(list, in: &state, &outcome)
        case .orderTodosByDate:
            // By the instant, so a todo at 08:00 comes before one at 18:00 on the same day.
            let list = state.todos.enumerated().sorted {
                ($0.element.dateTime?.timeIntervalSince1970 ?? .infinity, $0.offset) < ($1.element.dateTime?.timeIntervalSince1970 ?? .infinity, $1.offset)
            }.map(\.element)
            writeOrder(list, in: &state, &outcome)
        case .orderTodosByPriority:
            let list = state.todos.enumerated().sorted {
                (-($0.element.priority ?? Int.min + 1), $0.offset) < (-($1.element.priority ?? Int.min + 1), $1.offset)
            }.map(\.element)
            writeOrder(list, in: &state, &outcome)
        case .removeCompleted:
            for record in state.todos where record.done == true { delete(record.path, in: &state, &outcome) }

        case .addWorkout(let workout):
            guard accepts(workout.problems, adding: "workout", &outcome) else { break }
            create(workout.name, kind: .workout, in: &state, &outcome) { try workout.newDocument() }
        case .updateWorkout(let path, let workout):
            guard isRecord(path, of: .workout, in: state, &outcome), accepts(workout.problems, saving: "workout", at: path, &outcome) else { break }
            edit(path, in: &state, &outcome) { try workout.updating($0) }
        case .removeWorkouts(let offsets):
            let list = state.workouts
            for offset in offsets where list.indices.contains(offset) { delete(list[offset].path, in: &state, &outcome) }
        case .sortWorkoutsByDate:
            order(.date, in: &state, &outcome)
        case .sortWorkoutsByDistance:
            order(.distance, in: &state, &outcome)
        case .sortWorkoutsByComplexity:
            order(.complexity, in: &state, &outcome)

        case .addRecipe(let recipe):
            guard accepts(recipe.problems, adding: "recipe", &outcome) else { break }
            create(recipe.title, kind: .recipe, in: &state, &outcome) { try recipe.newDocument() }
        case .updateRecipe(let path, let recipe):
            guard isRecord(path, of: .recipe, in: state, &outcome), accepts(recipe.problems, saving: "recipe", at: path, &outcome) else { break }
            edit(path, in: &state, &outcome) { try recipe.updating($0) }
        case .setField(let path, let key, let value):
            edit(path, in: &state, &outcome) { try $0.settingValue(value, forKey: key) }
        case .addQuote(let quote):
            guard accepts(quote.problems, adding: "quote", &outcome) else { break }
            create(String(quote.text.prefix(40)), kind: .quote, in: &state, &outcome) { try quote.newDocument() }
        case .updateSettings(let settings):
            do {
                let old = state.settingsBytes
                let document = try old.map { try Document(yamlBytes: $0, path: Settings.fileName) }
                    ?? Document(yamlBytes: [], path: Settings.fileName)
                let updated = try settings.updating(document)
                // No file and nothing to write: no empty folio.yaml, no notice.
                if updated.bytes != old ?? [] {
                    outcome.effects.append(.write(path: Settings.fileName, bytes: updated.bytes, replacing: old.map(Fingerprint.init)))
                    state.settingsBytes = updated.bytes
                    let now = Settings(updated)
                    outcome.changes.settingKeys = now.changedKeys(from: state.settings)
                    state.settings = now
                    outcome.changes.settingsChanged = true
                }
            } catch {
                // folio.yaml that does not parse is left as it is, as any record's file.
                let unparseable = (error as? FormatError).map { $0.kind != .invalidEdit } ?? false
                outcome.errors.append(StoreError(unparseable ? .unparseable : .invalidEdit, path: Settings.fileName, "\(error)"))
            }
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
        do {
            let document = try make()
            let path = uniquePath(kind.folder + "/" + slug(title), in: state)
            state.put(StoreState.prepare(path: path, document: document), bytes: document.bytes)
            outcome.changes.added.append(path)
            outcome.effects.append(.write(path: path, bytes: document.bytes, replacing: nil))
        } catch {
            outcome.errors.append(StoreError(.invalidEdit, path: nil, "\(error)"))
        }
    }

    /// Applies an edit to a record's document; refuses files that do not parse.
    static func edit(_ path: String, in state: inout StoreState, _ outcome: inout Outcome, change: (Document) throws -> Document) {
        guard let record = state[path] else {
            return outcome.errors.append(.noSuchRecord(path))
        }
        if let error = record.error { return outcome.errors.append(.unparseable(path, error)) }
        guard let document = state.document(of: record) else {
            return outcome.errors.append(.changedOnDisk(path))
        }
        do {
            let updated = try change(document)
            guard updated.bytes != document.bytes else { return }
            state.put(StoreState.prepare(path: path, document: updated), bytes: updated.bytes)
            outcome.changes.updated.append(path)
            outcome.effects.append(.write(path: path, bytes: updated.bytes, replacing: record.fingerprint))
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
    static func writeOrder(_ list: [Record], in state: inout StoreState, _ outcome: inout Outcome) {
        if list.map(\.path) != state.todos.map(\.path) { outcome.changes.reordered.append(.todo) }
        for (position, record) in list.enumerated() where record.order != position + 1 {
            edit(record.path, in: &state, &outcome) { document in
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

    static func uniquePath(_ stem: String, in state: StoreState) -> String {
        var path = stem + ".md"
        var n = 2
        while state[path] != nil {
            path = "\(stem)-\(n).md"
            n += 1
        }
        return path
    }
}
