#if canImport(SwiftUI)
import Folio
import SwiftUI

/// NapBot's settings: the sleep goal and the notifications switch.
public struct NapBotSettingsView: View {
    let settings: SettingsStore

    /// The view of `settings`.
    public init(settings: SettingsStore) { self.settings = settings }

    /// A stepper and a toggle, each written to `folio.yaml` as it changes.
    public var body: some View {
        Form {
            Stepper("Sleep goal: \(settings.sleepGoal, specifier: "%.1f") h",
                    value: Binding(get: { @MainActor in settings.sleepGoal },
                                   set: { @MainActor hours in Task { await settings.setSleepGoal(hours) } }),
                    in: 4...12, step: 0.5)
            Toggle("Notifications", isOn: Binding(get: { @MainActor in settings.notificationsEnabled },
                                                  set: { @MainActor on in Task { await settings.setNotifications(on) } }))
        }
    }
}

/// NapBot's todo list.
public struct NapBotTodosView: View {
    let todos: TodosStore
    @State private var newTitle = ""

    /// The view of `todos`.
    public init(todos: TodosStore) { self.todos = todos }

    /// The list, with a field that inserts at the top, swipe to delete, drag to move.
    public var body: some View {
        List {
            TextField("New todo", text: $newTitle).onSubmit {
                let title = newTitle
                newTitle = ""
                Task { await todos.insertAtTop(title) }
            }
            ForEach(todos.todos) { todo in
                Button { Task { await todos.toggle(todo) } } label: {
                    Label(todo.title, systemImage: todo.done == true ? "checkmark.circle.fill" : "circle")
                }
            }
            .onDelete { offsets in Task { await todos.delete(atOffsets: offsets) } }
            .onMove { offsets, destination in Task { await todos.move(fromOffsets: offsets, toOffset: destination) } }
        }
        .toolbar {
            Menu("Order") {
                Button("By date") { Task { await todos.orderByDate() } }
                Button("By priority") { Task { await todos.orderByPriority() } }
                Button("Remove completed") { Task { await todos.removeCompleted() } }
            }
        }
    }
}
#endif
