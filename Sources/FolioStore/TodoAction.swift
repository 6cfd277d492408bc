import Foundation
import FolioModel

/// The todo list's operations (NapBot's), each on todos only.
public enum TodoAction: Sendable {
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
}
