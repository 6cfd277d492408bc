import Foundation
import FolioTestSupport
import Observation
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// The API an app author expects, designed from the five tutorial apps (issue 13, third list).
@Suite struct AppAPITests {
    @MainActor
    func store(_ files: [String: String]) async throws -> (Store, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-api-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try await Store.load(folder.path, removedFiles: nil), folder)
    }

    @MainActor
    @Test func dispatchSaysWhatHappenedIncludingTheNewFilesPath() async throws {
        let (store, folder) = try await store(ReducerTests.files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let added = await store.dispatch(.addTodo(Todo(title: "Water the basil")))
        #expect(added.succeeded && added.createdPath == "todos/water-the-basil.md")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/todos/water-the-basil.md"))
        let refused = await store.dispatch(.toggleDone(path: "recipes/carbonara.md"))
        #expect(!refused.succeeded && refused.errors.map(\.kind) == [.wrongKind] && refused.createdPath == nil)
        let moved = await store.dispatch(.moveTodos(fromOffsets: IndexSet(integer: 3), toOffset: 0))
        #expect(moved.changes.reordered == [.todo] && store.todos.first?.path == "todos/water-the-basil.md")
        #expect(await store.dispatch(.orderTodosByDate).changes.reordered == [.todo])
        // Already in date order: nothing moves, nothing is announced.
        #expect(await store.dispatch(.orderTodosByDate).changes.reordered == [])
    }

    @Test func recordsAreIdentifiedByPathAndReadAsTheirTypes() throws {
        let state = ReducerTests.state(adding: [:])
        #expect(state["todos/milk.md"]?.id == "todos/milk.md")
        #expect(state.recipe(at: "recipes/carbonara.md")?.ingredients == [Ingredient(name: "Spaghetti", quantity: "400g"), Ingredient(name: "Uova", quantity: "4")])
        #expect(state.recipe(at: "todos/milk.md") == nil)
        #expect(state.todo(at: "todos/milk.md")?.title == "Buy milk")
        #expect(state.workout(at: "workouts/long.md")?.complexity == .high)
        #expect(state.recipes.map(\.path) == ["recipes/carbonara.md"])
    }

    @Test func statesCompareByWhatTheyHold() {
        var a = ReducerTests.state(adding: [:]), b = ReducerTests.state(adding: [:])
        #expect(a == b)
        _ = Reducer.reduce(&a, .toggleDone(path: "todos/milk.md"))
        #expect(a != b)
        _ = Reducer.reduce(&b, .toggleDone(path: "todos/milk.md"))
        #expect(a == b)
        _ = Reducer.reduce(&a, .toggleDone(path: "todos/milk.md"))
        #expect(a == ReducerTests.state(adding: [:]))
        _ = Reducer.reduce(&b, .sortWorkoutsByDistance)
        _ = Reducer.reduce(&b, .toggleDone(path: "todos/milk.md"))
        #expect(b != ReducerTests.state(adding: [:]))
    }

    @Test func settingsByTypedKeysWithDefaultsAndAChangeNoticePerKey() {
        var state = StoreState(files: [:])
        #expect(state.settings[.sleepGoal] == 8 && state.settings[.notifications] == false)
        let theme = SettingKey("theme", default: "light")
        var settings = state.settings
        settings[.sleepGoal] = 7.5
        settings[theme] = "dark"
        let outcome = Reducer.reduce(&state, .updateSettings(settings))
        #expect(outcome.changes.settingKeys == ["sleepGoal", "theme"])
        #expect(state.settingsBytes.map { String(decoding: $0, as: UTF8.self) } == "sleepGoal: 7.5\ntheme: dark\n")
        #expect(state.settings[theme] == "dark" && state.settings.sleepGoal == 7.5)
        // Another program edits one key: only that key is announced.
        let outside = Reducer.reduce(&state, .settingsFileChanged(bytes: Array("sleepGoal: 7.5\ntheme: sepia\n".utf8)))
        #expect(outside.changes.settingKeys == ["theme"])
        // Setting 8 where the file says 8 writes nothing.
        _ = Reducer.reduce(&state, .settingsFileChanged(bytes: Array("sleepGoal: 8\n".utf8)))
        var same = state.settings
        same[.sleepGoal] = 8
        #expect(Reducer.reduce(&state, .updateSettings(same)).effects.isEmpty)
    }

    /// A copy of the settings an app holds writes back only what the app changed: a key
    /// another program changed meanwhile keeps its new value.
    @Test func aHeldCopyOfTheSettingsDoesNotUndoAnotherProgramsChange() {
        var state = StoreState(files: [:])
        _ = Reducer.reduce(&state, .settingsFileChanged(bytes: Array("theme: light\nnotifications: false\n".utf8)))
        var draft = state.settings
        _ = Reducer.reduce(&state, .settingsFileChanged(bytes: Array("theme: dark\nnotifications: false\n".utf8)))
        draft[.notifications] = true
        _ = Reducer.reduce(&state, .updateSettings(draft))
        #expect(state.settingsBytes.map { String(decoding: $0, as: UTF8.self) } == "theme: dark\nnotifications: true\n")
        // Two large whole numbers are two values, not one Double.
        #expect(!Settings.same(.int(9_007_199_254_740_993), .int(9_007_199_254_740_992)) && Settings.same(.int(8), .float(8)))
    }

    /// A record whose kind changes leaves one list for another; deleted afterwards, it
    /// leaves that list too (a stale row would make a swipe delete the wrong file).
    @MainActor
    @Test func aRecordThatChangesKindMovesBetweenTheKeptLists() async throws {
        let (store, folder) = try await store(ReducerTests.files)
        defer { try? FileManager.default.removeItem(at: folder) }
        for _ in 0..<20 {
            store.apply(DiskSnapshot(entries: ["todos/milk.md": .file(Array("---\ntitle: Milk soup\nkind: recipe\n---\n".utf8))]))
            #expect(store.recipes.map(\.path).contains("todos/milk.md") && !store.todos.map(\.path).contains("todos/milk.md"))
            store.apply(DiskSnapshot(entries: ["todos/milk.md": .missing]))
            #expect(store.recipes == store.state.recipes && store.todos == store.state.todos)
            store.apply(DiskSnapshot(entries: ["todos/milk.md": .file(Array(ReducerTests.files["todos/milk.md"]!.utf8))]))
            #expect(store.todos == store.state.todos && store.recipes == store.state.recipes)
        }
    }

    @Test func napBotsTodoOperations() {
        var state = ReducerTests.state(adding: [:])
        let top = Reducer.reduce(&state, .insertTodoAtTop(Todo(title: "Call mum")))
        #expect(top.effects.count == 1 && top.changes.reordered == [.todo])
        #expect(state.todos.first?.title == "Call mum" && state.todos.first?.order == 0)
        let done = Reducer.reduce(&state, .setDone(path: "todos/milk.md", true))
        #expect(done.changes.updated == ["todos/milk.md"] && state["todos/milk.md"]?.done == true)
        #expect(Reducer.reduce(&state, .setDone(path: "todos/milk.md", true)).effects.isEmpty)
        let titles = state.todos.map(\.title)
        let removed = Reducer.reduce(&state, .removeTodos(atOffsets: IndexSet([0, 2])))
        #expect(removed.changes.removed.count == 2)
        #expect(state.todos.map(\.title) == titles.enumerated().filter { ![0, 2].contains($0.offset) }.map(\.element))
    }

    @Test func updatesAreValidatedAndKindChecked() {
        var state = ReducerTests.state(adding: [:])
        let blank = Reducer.reduce(&state, .updateTodo(path: "todos/milk.md", Todo(title: "")))
        #expect(blank.errors.map(\.message) == ["cannot save the todo: a todo needs a title"] && blank.effects.isEmpty)
        let wrong = Reducer.reduce(&state, .updateWorkout(path: "todos/milk.md", Workout(name: "Run")))
        #expect(wrong.errors.map(\.kind) == [.wrongKind])
        var run = state.workout(at: "workouts/run.md")!
        run.distance = 6
        #expect(Reducer.reduce(&state, .updateWorkout(path: "workouts/run.md", run)).changes.updated == ["workouts/run.md"])
        #expect(state["workouts/run.md"]?.distance == 6)
    }

    /// A view reading only the settings (or only the workouts) is not invalidated when a
    /// todo is toggled; a view reading the todos is.
    @MainActor
    @Test func observationIsPerListAndForTheSettings() async throws {
        let walk = "---\nname: Walk\ndistance: 3\ndate: 2026-10-09\ncomplexity: medium\n---\n"
        let (store, folder) = try await store(ReducerTests.files.merging(["workouts/walk.md": walk]) { $1 })
        defer { try? FileManager.default.removeItem(at: folder) }
        final class Flags: @unchecked Sendable {
            // Safe: set by observation callbacks and read on the main actor after the awaits they follow.
            var settings = false, workouts = false, todos = false
        }
        let flags = Flags()
        withObservationTracking { _ = store.settings } onChange: { flags.settings = true }
        withObservationTracking { _ = store.workouts } onChange: { flags.workouts = true }
        withObservationTracking { _ = store.todos } onChange: { flags.todos = true }
        let before = store.todos
        await store.dispatch(.toggleDone(path: "todos/milk.md"))
        #expect(flags.todos && !flags.settings && !flags.workouts)
        #expect(store.todos != before && store.todos == store.state.todos)
        var settings = store.settings
        settings[.sleepGoal] = 6
        await store.dispatch(.updateSettings(settings))
        #expect(flags.settings && !flags.workouts)
        await store.dispatch(.sortWorkoutsByDistance)
        #expect(flags.workouts && store.workouts == store.state.workouts)
    }

    @Test func quantitiesHoldANumberADenominatorAndAnyUnit() throws {
        let half = Quantity(number: 1, denominator: 2, unit: "Grams")
        #expect(half.text == "1/2 Grams" && half.amount == 0.5)
        #expect(Quantity("1 1/2 cups").number == 3 && Quantity("1 1/2 cups").denominator == 2 && Quantity("1 1/2 cups").unit == "cups")
        #expect(Quantity("½ tsp").number == 1 && Quantity("½ tsp").denominator == 2)
        #expect(Quantity("400g").number == 400 && Quantity("400g").denominator == nil && Quantity("400g").unit == "g")
        for quantity in [half, Quantity(number: 3, denominator: 4, unit: "blorps"), Quantity(number: 2.5, unit: "dl"), Quantity(number: 2)] {
            let ingredient = Ingredient(name: "Sugar", quantity: quantity)
            let recipe = Recipe(title: "T", ingredients: [ingredient], steps: ["Mix."])
            let read = try #require(Recipe(try recipe.newDocument()).ingredients.first?.quantity)
            #expect(read.number == quantity.number && read.denominator == quantity.denominator && read.unit == quantity.unit, "\(quantity)")
        }
    }

    @Test func aTodosDateIsADateWithItsTimeOfDay() {
        var todo = Todo(title: "Dentist", date: "2026-11-30T08:15:00")
        #expect(todo.dueDate == Date(timeIntervalSince1970: 1_796_026_500))
        todo.dueDate = Date(timeIntervalSince1970: 1_796_062_500)
        #expect(todo.date == "2026-11-30T18:15:00Z")
        #expect(Todo(title: "Someday").dueDate == nil)
        for days in [-800_000, -1, 0, 1, 20_000, 20_422, 2_000_000] {
            #expect(CalendarDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }
}
