import Foundation
import FolioFormat
import FolioModel

/// Everything that changes the store arrives as an action: edits from disk (the
/// watcher, the sync engine), and the tutorials' operations from apps and the CLI.
public enum Action: Sendable {
    /// A file's bytes as they are now on disk (new or changed).
    case fileChanged(path: String, bytes: [UInt8])
    /// A file that is gone from disk.
    case fileRemoved(path: String)
    /// A file that moved: gone from `from`, at `to` with the same bytes it had.
    case fileMoved(from: String, to: String, bytes: [UInt8])
    /// `folio.yaml` as it is now on disk, or nil when it is gone.
    case settingsFileChanged(bytes: [UInt8]?)

    /// Adds a todo as a new file in `todos/`, at the end of the list.
    case addTodo(Todo)
    /// Adds a todo as a new file in `todos/`, at the top of the list (as NapBot inserts).
    case insertTodoAtTop(Todo)
    /// Ticks a todo off, or back on.
    case toggleDone(path: String)
    /// Sets whether a todo is done.
    case setDone(path: String, Bool)
    /// Writes a todo's changed fields into its file.
    case updateTodo(path: String, Todo)
    /// Deletes a todo's file.
    case removeTodo(path: String)
    /// Deletes the todos at these positions of the todo list (a list's swipe to delete).
    case removeTodos(atOffsets: IndexSet)
    /// Moves todos in the list; the new positions are written as their `order`.
    case moveTodos(fromOffsets: IndexSet, toOffset: Int)
    /// Orders the todo list by date (earliest first), written as `order`.
    case orderTodosByDate
    /// Orders the todo list by priority (highest first), written as `order`.
    case orderTodosByPriority
    /// Deletes the files of the todos that are done.
    case removeCompleted

    /// Adds a workout as a new file in `workouts/`.
    case addWorkout(Workout)
    /// Writes a workout's changed fields into its file.
    case updateWorkout(path: String, Workout)
    /// Deletes the workouts at these positions of the workout list.
    case removeWorkouts(atOffsets: IndexSet)
    /// Orders the workout list by date, newest first: the default order, and the way back to it.
    case sortWorkoutsByDate
    /// Orders the workout list by distance.
    case sortWorkoutsByDistance
    /// Orders the workout list by complexity.
    case sortWorkoutsByComplexity

    /// Adds a recipe as a new file in `recipes/`; refused when an app could not save it.
    case addRecipe(Recipe)
    /// Writes a recipe's changed parts into its file.
    case updateRecipe(path: String, Recipe)
    /// Deletes a recipe's file.
    case removeRecipe(path: String)

    /// Deletes any record's file.
    case removeRecord(path: String)
    /// Sets one front-matter field of a record with a minimal edit.
    case setField(path: String, key: String, value: YAMLValue)

    /// Adds a quote as a new file in `quotes/`.
    case addQuote(Quote)
    /// Writes changed settings into `folio.yaml`.
    case updateSettings(Settings)
}

extension Action {
    /// The files a disk action is about (none for the operations apps dispatch).
    var paths: [String] {
        switch self {
        case .fileChanged(let path, _), .fileRemoved(let path): [path]
        case .fileMoved(let from, let to, _): [from, to]
        case .settingsFileChanged: [Settings.fileName]
        default: []
        }
    }
}

/// What one action changed, for observers.
public struct ChangeSet: Sendable, Hashable {
    /// Paths of new records.
    public var added: [String] = []
    /// Paths of changed records.
    public var updated: [String] = []
    /// Paths of removed records.
    public var removed: [String] = []
    /// Records that moved with their content unchanged, as (from, to).
    public var moved: [Move] = []
    /// Whether the settings changed.
    public var settingsChanged = false
    /// The settings keys whose values changed, for a view that shows only some of them.
    public var settingKeys: [String] = []
    /// The kinds whose list is in a new order (workouts sorted, todos moved or ordered).
    public var reordered: [Kind] = []

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty && moved.isEmpty && !settingsChanged && reordered.isEmpty }

    /// A record that moved.
    public struct Move: Sendable, Hashable {
        /// Where it was.
        public var from: String
        /// Where it is.
        public var to: String
    }

    /// This change set followed by `later`.
    public mutating func append(_ later: ChangeSet) {
        added += later.added
        updated += later.updated
        removed += later.removed
        moved += later.moved
        settingsChanged = settingsChanged || later.settingsChanged
        settingKeys += later.settingKeys.filter { !settingKeys.contains($0) }
        reordered += later.reordered.filter { !reordered.contains($0) }
    }
}

/// A file-system change for the store to carry out after the reducer has run.
public enum Effect: Sendable, Hashable {
    /// Write `bytes` to `path`, but only if the file still has the fingerprint `replacing` (nil: must not exist).
    case write(path: String, bytes: [UInt8], replacing: Fingerprint?)
    /// Delete `path`, but only if it still has the fingerprint `expecting`.
    case delete(path: String, expecting: Fingerprint)
}

extension Effect {
    /// The file the effect concerns.
    public var path: String {
        switch self {
        case .write(let path, _, _), .delete(let path, _): return path
        }
    }
}

/// An action the reducer refused, or an effect the disk did not allow.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal it is, for a caller to act on.
    public enum Kind: Sendable, Hashable {
        /// The file changed on disk since the store read it: it was left as it is now,
        /// and read again. Try the action again on what is there now.
        case changedOnDisk
        /// No record at the path.
        case noSuchRecord
        /// The file does not parse, so the store does not change it (the message says where).
        case unparseable
        /// A record an app could not save: a recipe without title, ingredients or steps.
        case invalidRecord
        /// An edit the document cannot take (a key that is not a plain scalar key, say).
        case invalidEdit
        /// The disk refused a write or a delete: a full disk, a permission.
        case io
        /// An action for one kind of record (a todo's, a recipe's) on a file of another kind.
        case wrongKind
    }

    /// What kind of refusal it is.
    public var kind: Kind
    /// The file concerned, when there is one.
    public var path: String?
    /// What happened and what to do.
    public var message: String

    /// An error of kind `kind` about `path`.
    public init(_ kind: Kind, path: String?, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `PATH: error: MESSAGE`.
    public var description: String { (path.map { $0 + ": " } ?? "") + "error: " + message }

    /// The error for a file that is no longer what the store read.
    public static func changedOnDisk(_ path: String) -> StoreError {
        StoreError(.changedOnDisk, path: path, "the file changed on disk since Folio read it; Folio kept it as it is now and did not write")
    }

    /// The error for a file that does not parse, which Folio therefore does not change.
    static func unparseable(_ path: String, _ error: FormatError) -> StoreError {
        StoreError(.unparseable, path: path, "the file does not parse, so Folio does not change it: \(error)")
    }

    /// The error for a path that holds no record.
    public static func noSuchRecord(_ path: String) -> StoreError {
        StoreError(.noSuchRecord, path: path, "no such record (paths are relative to the folder: folio list DIR lists them)")
    }
}
