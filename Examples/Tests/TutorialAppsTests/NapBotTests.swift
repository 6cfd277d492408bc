import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct NapBotTests {
    @Test func settingsPersistAndAnnounceEachChange() async throws {
        let (store, folder) = try await temporaryStore(["folio.yaml": "theme: dark\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = SettingsStore(store: store)
        #expect(settings.sleepGoal == 8 && !settings.notificationsEnabled)
        var notices = settings.changes().makeAsyncIterator()
        await settings.setSleepGoal(7.5)
        #expect(await notices.next() == ["sleepGoal"])
        await settings.setNotifications(true)
        #expect(await notices.next() == ["notifications"])
        #expect(text(folder, "folio.yaml") == "theme: dark\nsleepGoal: 7.5\nnotifications: true\n")
        let reopened = SettingsStore(store: try await Store.load(folder))
        #expect(reopened.sleepGoal == 7.5 && reopened.notificationsEnabled)
    }

    @Test func todosAsTheTutorialHasThem() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let todos = TodosStore(store: store)
        await todos.add("Pay rent", date: "2026-12-01", priority: 3)
        await todos.add("Buy milk", date: "2026-11-28T18:00:00", priority: 1)
        await todos.add("Walk", date: "2026-11-28T08:00:00")
        #expect(await todos.insertAtTop("Call mum").createdPath == "todos/call-mum.md")
        #expect(todos.todos.map(\.title) == ["Call mum", "Pay rent", "Buy milk", "Walk"])
        await todos.orderByDate()
        #expect(todos.todos.map(\.title) == ["Walk", "Buy milk", "Pay rent", "Call mum"])
        await todos.orderByPriority()
        #expect(todos.todos.map(\.title) == ["Pay rent", "Buy milk", "Walk", "Call mum"])
        await todos.move(fromOffsets: IndexSet(integer: 3), toOffset: 0)
        #expect(todos.todos.map(\.title) == ["Call mum", "Pay rent", "Buy milk", "Walk"])
        await todos.toggle(todos.todos[2])
        await todos.removeCompleted()
        #expect(todos.todos.map(\.title) == ["Call mum", "Pay rent", "Walk"])
        await todos.delete(atOffsets: IndexSet(integer: 0))
        #expect(todos.todos.map(\.title) == ["Pay rent", "Walk"])
        // The order is in the files: a fresh load lists them the same way.
        #expect(try await Store.load(folder).todos.map(\.title) == ["Pay rent", "Walk"])
    }
}
