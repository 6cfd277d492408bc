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
