import Foundation
import FolioFormat
import FolioModel

extension Reducer {
    /// The todo list: NapBot's operations, each on todos only.
    static func reduceTodos(_ action: TodoAction, _ state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome) {
        switch action {
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
            markDone(path, in: &state, contents, &outcome) { !$0 }
        case .setDone(let path, let done):
            markDone(path, in: &state, contents, &outcome) { _ in done }
        case .updateTodo(let path, let todo):
            guard isRecord(path, of: .todo, in: state, &outcome), accepts(todo.problems, saving: "todo", at: path, &outcome) else { break }
            edit(path, in: &state, contents, &outcome) { try todo.updating($0) }
        case .removeTodo(let path):
            if isRecord(path, of: .todo, in: state, &outcome) { delete(path, in: &state, &outcome) }
        case .removeTodos(let offsets):
            let list = state.todos
            for offset in offsets where list.indices.contains(offset) { delete(list[offset].path, in: &state, &outcome) }
        case .moveTodos(let offsets, let destination):
            var list = state.todos
            let moving = offsets.filter { list.indices.contains($0) }.map { list[$0] }
            let before = offsets.filter { $0 < destination }.count
            list = list.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
            list.insert(contentsOf: moving, at: min(max(destination - before, 0), list.count))
            writeOrder(list, in: &state, contents, &outcome)
        case .orderTodosByDate:
            // By the instant, so a todo at 08:00 comes before one at 18:00 on the same day.
            let list = state.todos.enumerated().sorted {
                ($0.element.dateTime?.timeIntervalSince1970 ?? .infinity, $0.offset) < ($1.element.dateTime?.timeIntervalSince1970 ?? .infinity, $1.offset)
            }.map(\.element)
            writeOrder(list, in: &state, contents, &outcome)
        case .orderTodosByPriority:
            let list = state.todos.enumerated().sorted {
                (-($0.element.priority ?? Int.min + 1), $0.offset) < (-($1.element.priority ?? Int.min + 1), $1.offset)
            }.map(\.element)
            writeOrder(list, in: &state, contents, &outcome)
        case .removeCompleted:
            for record in state.todos where record.done == true { delete(record.path, in: &state, &outcome) }
        }
    }

    /// Writes the todo at `path`'s done flag as `change` makes it from what it was.
    static func markDone(_ path: String, in state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome, _ change: (Bool) -> Bool) {
        guard isRecord(path, of: .todo, in: state, &outcome) else { return }
        edit(path, in: &state, contents, &outcome) { document in
            var todo = Todo(document)
            todo.done = change(todo.done)
            return try todo.updating(document)
        }
    }
}
