import Folio
import Foundation

/// NapBot's todos: add (at the end or at the top), tick, delete, move, order by date or
/// by priority, remove the completed ones — one Markdown file per todo in `todos/`, the
/// list's order written as each file's `order:`.
@MainActor
public final class TodosStore {
    /// The folder's store.
    public let store: Store

    /// The todos of `store`.
    public init(store: Store) { self.store = store }

    /// The todos in list order (the store keeps the list).
    public var todos: [Record] { store.todos }

    /// Adds a todo at the end of the list; the result has its file's path.
    @discardableResult
    public func add(_ title: String, date: String? = nil, priority: Int? = nil) async -> ActionResult {
        await store.dispatch(.addTodo(Todo(title: title, date: date, priority: priority)))
    }

    /// Adds a todo at the top of the list, as NapBot does.
    @discardableResult
    public func insertAtTop(_ title: String) async -> ActionResult { await store.dispatch(.insertTodoAtTop(Todo(title: title))) }

    /// Ticks a todo off, or back on.
    public func toggle(_ todo: Record) async { await store.dispatch(.toggleDone(path: todo.path)) }

    /// Deletes the todos at these positions (a list's swipe to delete).
    public func delete(atOffsets offsets: IndexSet) async { await store.dispatch(.removeTodos(atOffsets: offsets)) }

    /// Moves todos (a list's drag and drop).
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) async {
        await store.dispatch(.moveTodos(fromOffsets: offsets, toOffset: destination))
    }

    /// Orders the list by date, earliest first.
    public func orderByDate() async { await store.dispatch(.orderTodosByDate) }

    /// Orders the list by priority, highest first.
    public func orderByPriority() async { await store.dispatch(.orderTodosByPriority) }

    /// Deletes the todos that are done.
    public func removeCompleted() async { await store.dispatch(.removeCompleted) }
}
