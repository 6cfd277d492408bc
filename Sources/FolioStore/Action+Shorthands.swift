import Foundation
import FolioFormat
import FolioModel

/// The actions by their own names (`store.dispatch(.toggleDone(path:))`), each the
/// feature's nested action: call sites need not name the feature.
extension Action {
    /// A file's bytes as they are now on disk (new or changed).
    public static func fileChanged(path: String, bytes: [UInt8]) -> Action { .disk(.fileChanged(path: path, bytes: bytes)) }

    /// A file that is gone from disk.
    public static func fileRemoved(path: String) -> Action { .disk(.fileRemoved(path: path)) }

    /// A file that moved: gone from `from`, at `to` with the same bytes it had.
    public static func fileMoved(from: String, to: String, bytes: [UInt8]) -> Action { .disk(.fileMoved(from: from, to: to, bytes: bytes)) }

    /// `folio.yaml` as it is now on disk, or nil when it is gone.
    public static func settingsFileChanged(bytes: [UInt8]?) -> Action { .disk(.settingsFileChanged(bytes: bytes)) }

    /// Adds a todo as a new file in `todos/`, at the end of the list.
    public static func addTodo(_ todo: Todo) -> Action { .todos(.addTodo(todo)) }

    /// Adds a todo as a new file in `todos/`, at the top of the list (as NapBot inserts).
    public static func insertTodoAtTop(_ todo: Todo) -> Action { .todos(.insertTodoAtTop(todo)) }

    /// Ticks a todo off, or back on.
    public static func toggleDone(path: String) -> Action { .todos(.toggleDone(path: path)) }

    /// Sets whether a todo is done.
    public static func setDone(path: String, _ value: Bool) -> Action { .todos(.setDone(path: path, value)) }

    /// Writes a todo's changed fields into its file.
    public static func updateTodo(path: String, _ todo: Todo) -> Action { .todos(.updateTodo(path: path, todo)) }

    /// Deletes a todo's file.
    public static func removeTodo(path: String) -> Action { .todos(.removeTodo(path: path)) }

    /// Deletes the todos at these positions of the todo list (a list's swipe to delete).
    public static func removeTodos(atOffsets: IndexSet) -> Action { .todos(.removeTodos(atOffsets: atOffsets)) }

    /// Moves todos in the list; the new positions are written as their `order`.
    public static func moveTodos(fromOffsets: IndexSet, toOffset: Int) -> Action { .todos(.moveTodos(fromOffsets: fromOffsets, toOffset: toOffset)) }

    /// Orders the todo list by date (earliest first), written as `order`.
    public static var orderTodosByDate: Action { .todos(.orderTodosByDate) }

    /// Orders the todo list by priority (highest first), written as `order`.
    public static var orderTodosByPriority: Action { .todos(.orderTodosByPriority) }

    /// Deletes the files of the todos that are done.
    public static var removeCompleted: Action { .todos(.removeCompleted) }

    /// Adds a workout as a new file in `workouts/`.
    public static func addWorkout(_ workout: Workout) -> Action { .workouts(.addWorkout(workout)) }

    /// Writes a workout's changed fields into its file.
    public static func updateWorkout(path: String, _ workout: Workout) -> Action { .workouts(.updateWorkout(path: path, workout)) }

    /// Deletes the workouts at these positions of the workout list.
    public static func removeWorkouts(atOffsets: IndexSet) -> Action { .workouts(.removeWorkouts(atOffsets: atOffsets)) }

    /// Orders the workout list by date, newest first: the default order, and the way back to it.
    public static var sortWorkoutsByDate: Action { .workouts(.sortWorkoutsByDate) }

    /// Orders the workout list by distance.
    public static var sortWorkoutsByDistance: Action { .workouts(.sortWorkoutsByDistance) }

    /// Orders the workout list by complexity.
    public static var sortWorkoutsByComplexity: Action { .workouts(.sortWorkoutsByComplexity) }

    /// Adds a recipe as a new file in `recipes/`; refused when an app could not save it.
    public static func addRecipe(_ recipe: Recipe) -> Action { .records(.addRecipe(recipe)) }

    /// Writes a recipe's changed parts into its file.
    public static func updateRecipe(path: String, _ recipe: Recipe) -> Action { .records(.updateRecipe(path: path, recipe)) }

    /// Deletes a recipe's file.
    public static func removeRecipe(path: String) -> Action { .records(.removeRecipe(path: path)) }

    /// Deletes any record's file.
    public static func removeRecord(path: String) -> Action { .records(.removeRecord(path: path)) }

    /// Sets one front-matter field of a record with a minimal edit.
    public static func setField(path: String, key: String, value: YAMLValue) -> Action { .records(.setField(path: path, key: key, value: value)) }

    /// Adds a quote as a new file in `quotes/`.
    public static func addQuote(_ quote: Quote) -> Action { .records(.addQuote(quote)) }

    /// Writes changed settings into `folio.yaml`.
    public static func updateSettings(_ settings: Settings) -> Action { .records(.updateSettings(settings)) }

    /// Adds a note as a new file in `notes/`: its title as `title:`, then `body`.
    public static func addNote(title: String, body: String = "") -> Action {
        .records(.addRecord(kind: .note, fields: ["title": .string(title)], body: body))
    }

    /// Adds a record of any kind, named from its title, in its kind's folder (see ``RecordAction/addRecord(kind:fields:body:name:folder:)``).
    public static func addRecord(kind: Kind, fields: YAMLMapping, body: String = "") -> Action {
        .records(.addRecord(kind: kind, fields: fields, body: body))
    }

    /// Adds a record of any kind as the file `name` (nil: named from its title), in
    /// `folder` (nil: its kind's) (see ``RecordAction/addRecord(kind:fields:body:name:folder:)``).
    public static func addRecord(kind: Kind, fields: YAMLMapping, body: String = "", name: String?, folder: String? = nil) -> Action {
        .records(.addRecord(kind: kind, fields: fields, body: body, name: name, folder: folder))
    }

    /// Sets and removes fields of a record in one write (see ``RecordAction/updateFields(path:setting:removing:body:)``).
    public static func updateFields(path: String, setting: YAMLMapping, removing: [String] = []) -> Action {
        .records(.updateFields(path: path, setting: setting, removing: removing))
    }

    /// Replaces a record's whole content if it still holds what was read (see ``RecordAction/replaceContent(path:bytes:expecting:)``).
    public static func replaceContent(path: String, bytes: [UInt8], expecting: Fingerprint) -> Action {
        .records(.replaceContent(path: path, bytes: bytes, expecting: expecting))
    }
}
