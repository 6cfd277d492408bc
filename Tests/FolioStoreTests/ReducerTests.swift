import Foundation
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// The reducer alone: no disk, no clock.
@Suite struct ReducerTests {
    static let files: [String: String] = [
        "todos/milk.md": "---\ntitle: Buy milk\ndate: 2026-11-28\ndone: false\npriority: 1\norder: 2\n---\n",
        "todos/rent.md": "---\ntitle: Pay rent\ndate: 2026-11-01\ndone: true\npriority: 3\norder: 1\n---\n",
        "todos/bike.md": "---\ntitle: Fix bike\ndate: 2026-12-05\ndone: false\norder: 3\n---\n",
        "recipes/carbonara.md": "---\ntitle: Carbonara\ntime: 15m\ntags: [pasta, italian]\n---\nCon uova e guanciale, perché sì.\n\n## Ingredients\n- 400g Spaghetti\n- 4 Uova\n\n## Steps\n1. Cook.\n",
        "workouts/run.md": "---\nname: Run\ndistance: 5\ndate: 2026-10-01\ncomplexity: low\n---\n",
        "workouts/long.md": "---\nname: Long run\ndistance: 21.1\ndate: 2026-10-05\ncomplexity: high\n---\n",
        "notes/broken.md": "---\ntitle: \"Broken\n---\n",
    ]

    func state() -> StoreState { Self.state(adding: [:]) }

    /// The state of ``files`` with `extra` files added (or replacing some).
    static func state(adding extra: [String: String]) -> StoreState {
        StoreState(files: files.merging(extra) { $1 }.mapValues { Array($0.utf8) })
    }

    /// The reducer reads no file: an edit gets its bytes from the caller, and without
    /// them it is refused as changed on disk, though the state's source holds them.
    @Test func theReducerEditsOnlyTheBytesItIsGiven() {
        var state = state()
        #expect(state.filesRead(by: .toggleDone(path: "todos/milk.md")) == ["todos/milk.md"])
        #expect(state.filesRead(by: .removeCompleted).isEmpty)
        #expect(Set(state.filesRead(by: .orderTodosByDate)) == ["todos/milk.md", "todos/rent.md", "todos/bike.md"])
        let refused = Reducer.reduce(&state, .toggleDone(path: "todos/milk.md"), contents: [:])
        #expect(refused.errors.map(\.kind) == [.changedOnDisk] && refused.effects.isEmpty)
        let contents = state.readContents(for: .toggleDone(path: "todos/milk.md"))
        #expect(contents.keys.sorted() == ["todos/milk.md"])
        let done = Reducer.reduce(&state, .toggleDone(path: "todos/milk.md"), contents: contents)
        #expect(done.errors.isEmpty && done.changes.updated == ["todos/milk.md"])
        #expect(state["todos/milk.md"]?.done == true)
        // Bytes that are not the record's any more (the file changed since it was read) are refused too.
        let stale = Reducer.reduce(&state, .toggleDone(path: "todos/bike.md"), contents: ["todos/bike.md": Array("---\ntitle: Other\n---\n".utf8)])
        #expect(stale.errors.map(\.kind) == [.changedOnDisk])
    }

    @Test func conflictCopiesAreFlaggedWithTheirFiles() {
        let state = StoreState(files: [
            "todos/milk.md": Array("---\ntitle: Milk\n---\n".utf8),
            "todos/milk.sync-conflict-20261130-120000-phone.md": Array("---\ntitle: Oat milk\n---\n".utf8),
            "todos/milk (Anna's conflicted copy 2026-11-30).md": Array("---\ntitle: Soy milk\n---\n".utf8),
        ])
        #expect(state.conflicts.map(\.file) == ["todos/milk.md"])
        #expect(state.conflicts.first?.copies.count == 2)
        #expect(state["todos/milk.sync-conflict-20261130-120000-phone.md"]?.conflictCopyOf == "todos/milk.md")
        #expect(state["todos/milk.md"]?.conflictCopyOf == nil)
    }

    @Test func invalidFilesAreListedNotDropped() {
        let state = state()
        #expect(state.records.count == 7)
        #expect(state.invalidRecords.map(\.path) == ["notes/broken.md"])
        #expect(state.invalidRecords.first?.error?.kind == .unterminatedQuote)
        state._checkInvariants()
    }

    @Test func toggleDoneWritesOneLineAndExpectsWhatWasRead() {
        var state = state()
        let before = state["todos/milk.md"]!.fingerprint
        let outcome = Reducer.reduce(&state, .toggleDone(path: "todos/milk.md"))
        #expect(outcome.changes.updated == ["todos/milk.md"])
        guard case .write(let path, let bytes, let replacing)? = outcome.effects.first else {
            Issue.record("no write")
            return
        }
        #expect(path == "todos/milk.md" && replacing == before)
        #expect(String(decoding: bytes, as: UTF8.self) == Self.files["todos/milk.md"]!.replacingOccurrences(of: "done: false", with: "done: true"))
        #expect(state.records["todos/milk.md"]?.done == true)
        state._checkInvariants()
    }

    @Test func moveTodosPersistsOrder() {
        var state = state()
        #expect(state.todos.map(\.path) == ["todos/rent.md", "todos/milk.md", "todos/bike.md"])
        let outcome = Reducer.reduce(&state, .moveTodos(fromOffsets: IndexSet(integer: 2), toOffset: 0))
        #expect(state.todos.map(\.path) == ["todos/bike.md", "todos/rent.md", "todos/milk.md"])
        #expect(outcome.effects.count == 3)
        #expect(state.todos.map(\.order) == [1, 2, 3])
    }

    @Test func orderByDateAndPriority() {
        // The stored order matches neither sort; two todos tie on both keys, so the sorts
        // must also be stable; missing dates and priorities go last.
        var state = StoreState(files: [
            "todos/a.md": "---\ntitle: A\ndate: 2026-12-05\npriority: 1\norder: 1\n---\n",
            "todos/b.md": "---\ntitle: B\ndate: 2026-11-01\norder: 2\n---\n",
            "todos/c.md": "---\ntitle: C\ndate: 2026-11-20\npriority: 3\norder: 3\n---\n",
            "todos/d.md": "---\ntitle: D\npriority: 2\norder: 4\n---\n",
            "todos/e.md": "---\ntitle: E\ndate: 2026-11-20\npriority: 3\norder: 5\n---\n",
        ].mapValues { Array($0.utf8) })
        #expect(state.todos.map(\.path) == ["todos/a.md", "todos/b.md", "todos/c.md", "todos/d.md", "todos/e.md"])
        var outcome = Reducer.reduce(&state, .orderTodosByPriority)
        #expect(state.todos.map(\.path) == ["todos/c.md", "todos/e.md", "todos/d.md", "todos/a.md", "todos/b.md"])
        #expect(state.todos.map(\.order) == [1, 2, 3, 4, 5])
        #expect(Set(outcome.changes.updated) == ["todos/a.md", "todos/b.md", "todos/c.md", "todos/d.md", "todos/e.md"])
        outcome = Reducer.reduce(&state, .orderTodosByDate)
        #expect(state.todos.map(\.path) == ["todos/b.md", "todos/c.md", "todos/e.md", "todos/a.md", "todos/d.md"])
        #expect(state.todos.map(\.order) == [1, 2, 3, 4, 5])
        // a.md stays fourth, so only the others are rewritten.
        #expect(Set(outcome.changes.updated) == ["todos/b.md", "todos/c.md", "todos/e.md", "todos/d.md"])
        #expect(outcome.effects.count == 4)
        outcome = Reducer.reduce(&state, .orderTodosByDate)
        #expect(outcome.effects.isEmpty, "ordering an ordered list rewrites nothing")
        state._checkInvariants()
    }

    @Test func removeCompletedDeletesOnlyDoneTodos() {
        var state = state()
        let outcome = Reducer.reduce(&state, .removeCompleted)
        #expect(outcome.changes.removed == ["todos/rent.md"])
        #expect(outcome.effects == [.delete(path: "todos/rent.md", expecting: Fingerprint(Array(Self.files["todos/rent.md"]!.utf8)))])
    }

    @Test func addTodoGoesAtTheEnd() {
        var state = state()
        let outcome = Reducer.reduce(&state, .addTodo(Todo(title: "Call mum", date: "2026-12-01", priority: 2)))
        #expect(outcome.changes.added == ["todos/call-mum.md"])
        #expect(state.todos.last?.path == "todos/call-mum.md")
        #expect(state.todos.last?.order == 4)
        let again = Reducer.reduce(&state, .addTodo(Todo(title: "Call mum")))
        #expect(again.changes.added == ["todos/call-mum-2.md"])
    }

    @Test func workoutsSortAndRemoveByOffset() {
        // Three workouts whose date order (the default, newest first) differs from both sorts,
        // so a sort that does nothing cannot pass.
        var state = StoreState(files: [
            "workouts/run.md": "---\nname: Run\ndistance: 5\ndate: 2026-10-01\ncomplexity: low\n---\n",
            "workouts/long.md": "---\nname: Long run\ndistance: 21.1\ndate: 2026-10-05\ncomplexity: high\n---\n",
            "workouts/walk.md": "---\nname: Walk\ndistance: 3\ndate: 2026-10-10\ncomplexity: medium\n---\n",
        ].mapValues { Array($0.utf8) })
        #expect(state.workouts.map(\.path) == ["workouts/walk.md", "workouts/long.md", "workouts/run.md"])
        _ = Reducer.reduce(&state, .sortWorkoutsByDistance)
        #expect(state.workouts.map(\.path) == ["workouts/long.md", "workouts/run.md", "workouts/walk.md"])
        _ = Reducer.reduce(&state, .sortWorkoutsByComplexity)
        #expect(state.workouts.map(\.path) == ["workouts/long.md", "workouts/walk.md", "workouts/run.md"])
        let outcome = Reducer.reduce(&state, .removeWorkouts(atOffsets: IndexSet(integer: 1)))
        #expect(outcome.changes.removed == ["workouts/walk.md"])
    }

    @Test func anInvalidRecipeIsRefusedWithTheValidationMessage() {
        var state = state()
        let outcome = Reducer.reduce(&state, .addRecipe(Recipe(title: "Toast", ingredients: [Ingredient(name: "Bread")])))
        #expect(outcome.effects.isEmpty)
        #expect(outcome.errors.map(\.message) == ["cannot add the recipe: a recipe needs at least one step"])
        #expect(outcome.errors.map(\.kind) == [.invalidRecord])
        let ok = Reducer.reduce(&state, .addRecipe(Recipe(title: "Toast", ingredients: [Ingredient(name: "Bread")], steps: ["Toast it."])))
        #expect(ok.changes.added == ["recipes/toast.md"])
    }

    @Test func aFileThatDoesNotParseIsNeverRewritten() {
        var state = state()
        let outcome = Reducer.reduce(&state, .toggleDone(path: "notes/broken.md"))
        #expect(outcome.effects.isEmpty)
        #expect(outcome.errors.first?.message.hasPrefix("the file does not parse") == true)
        #expect(outcome.errors.map(\.kind) == [.unparseable])
    }

    @Test func outsideChangesArriveAsActions() {
        var state = state()
        var outcome = Reducer.reduce(&state, .fileChanged(path: "todos/milk.md", bytes: Array("---\ntitle: Buy oat milk\n---\n".utf8)))
        #expect(outcome.changes.updated == ["todos/milk.md"])
        #expect(state.records["todos/milk.md"]?.title == "Buy oat milk")
        outcome = Reducer.reduce(&state, .fileRemoved(path: "todos/milk.md"))
        #expect(outcome.changes.removed == ["todos/milk.md"])
        #expect(try! state.records(matching: Query(parsing: "milk")).isEmpty)
        state._checkInvariants()
    }

    @Test func updateRecipeWritesOnlyWhatChanged() {
        var state = state()
        let path = "recipes/carbonara.md"
        var recipe = Recipe(state.document(of: state[path]!)!)
        recipe.servings = 6
        recipe.ingredients.append(Ingredient(name: "Pecorino", quantity: "100g"))
        let outcome = Reducer.reduce(&state, .updateRecipe(path: path, recipe))
        guard case .write(_, let bytes, _)? = outcome.effects.first else {
            Issue.record("no write")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == Self.files[path]!
            .replacingOccurrences(of: "italian]\n", with: "italian]\nservings: 6\n")
            .replacingOccurrences(of: "- 4 Uova\n", with: "- 4 Uova\n- 100g Pecorino\n"))
        recipe.steps = []
        let refused = Reducer.reduce(&state, .updateRecipe(path: path, recipe))
        #expect(refused.effects.isEmpty && refused.errors.first?.message == "cannot save the recipe: a recipe needs at least one step")
    }

    @Test func setFieldAndRemoveRecord() {
        var state = state()
        let outcome = Reducer.reduce(&state, .setField(path: "workouts/run.md", key: "shoes", value: .string("trail")))
        #expect(outcome.changes.updated == ["workouts/run.md"])
        #expect(state.fields(of: state["workouts/run.md"]!)["shoes"] == .string("trail"))
        #expect(try! state.records(matching: Query(parsing: "shoes:trail")).map(\.path) == ["workouts/run.md"])
        let removed = Reducer.reduce(&state, .removeRecord(path: "notes/broken.md"))
        #expect(removed.effects == [.delete(path: "notes/broken.md", expecting: Fingerprint(Array(Self.files["notes/broken.md"]!.utf8)))])
        #expect(Reducer.reduce(&state, .removeRecord(path: "nope.md")).errors.map(\.description) == ["nope.md: error: no such record (paths are relative to the folder: folio list DIR lists them)"])
        #expect(Reducer.reduce(&state, .toggleDone(path: "nope.md")).errors.map(\.kind) == [.noSuchRecord])
        state._checkInvariants()
    }

    @Test func settingsWriteEveryKeyAndANoOpWritesNothing() throws {
        var state = StoreState(files: [:])
        let noOp = Reducer.reduce(&state, .updateSettings(state.settings))
        #expect(noOp.effects.isEmpty && noOp.changes.isEmpty && state.settingsBytes == nil)

        _ = Reducer.reduce(&state, .settingsFileChanged(bytes: Array("sleepGoal: 8\ntheme: dark # night\nunits: metric\n".utf8)))
        var settings = state.settings
        settings.fields["theme"] = .string("light")
        settings.fields["alarm"] = .string("07:00")
        settings.fields["units"] = nil
        let outcome = Reducer.reduce(&state, .updateSettings(settings))
        #expect(outcome.changes.settingsChanged)
        #expect(state.settingsBytes.map { String(decoding: $0, as: UTF8.self) } == "sleepGoal: 8\ntheme: light # night\nalarm: 07:00\n")
        // Settings made from scratch change what they set and remove nothing.
        let fresh = Reducer.reduce(&state, .updateSettings(Settings(sleepGoal: 7.5)))
        #expect(fresh.changes.settingsChanged)
        #expect(state.settingsBytes.map { String(decoding: $0, as: UTF8.self) } == "sleepGoal: 7.5\ntheme: light # night\nalarm: 07:00\n")
    }

    @Test func sortingWorkoutsTellsObserversAndTheDefaultOrderComesBack() {
        var state = ReducerTests.state(adding: ["workouts/walk.md": "---\nname: Walk\ndistance: 3\ndate: 2026-10-09\ncomplexity: medium\n---\n"])
        let byDate = state.workouts.map(\.path)
        #expect(byDate == ["workouts/walk.md", "workouts/long.md", "workouts/run.md"])
        let sorted = Reducer.reduce(&state, .sortWorkoutsByDistance)
        #expect(sorted.changes.reordered == [.workout] && !sorted.changes.isEmpty)
        #expect(state.workouts.map(\.path) == ["workouts/long.md", "workouts/run.md", "workouts/walk.md"])
        #expect(Reducer.reduce(&state, .sortWorkoutsByDistance).changes.isEmpty)
        let back = Reducer.reduce(&state, .sortWorkoutsByDate)
        #expect(back.changes.reordered == [.workout] && state.workouts.map(\.path) == byDate)
    }

    @Test func todoActionsTouchOnlyTodosAndRecipeActionsOnlyRecipes() {
        var state = ReducerTests.state(adding: [:])
        for action: Action in [.toggleDone(path: "recipes/carbonara.md"), .removeTodo(path: "recipes/carbonara.md"),
                               .removeRecipe(path: "todos/milk.md"),
                               .updateRecipe(path: "todos/milk.md", Recipe(title: "X", ingredients: [Ingredient(name: "Y")], steps: ["Z"]))] {
            let outcome = Reducer.reduce(&state, action)
            #expect(outcome.effects.isEmpty && outcome.changes.isEmpty, "\(action)")
            #expect(outcome.errors.map(\.kind) == [.wrongKind], "\(action)")
        }
        #expect(state.records.count == ReducerTests.files.count)
    }

    @Test func everyAddIsValidatedAndEveryProblemReported() {
        var state = ReducerTests.state(adding: [:])
        let cases: [(Action, [String])] = [
            (.addTodo(Todo(title: "  ")), ["cannot add the todo: a todo needs a title"]),
            (.addWorkout(Workout(name: "", distance: -3)), [
                "cannot add the workout: a workout needs a name",
                "cannot add the workout: a workout's distance must be a number of kilometres, 0 or more (got -3.0)",
            ]),
            (.addQuote(Quote(text: "\n")), ["cannot add the quote: a quote needs its words"]),
            (.addRecipe(Recipe(title: "")), [
                "cannot add the recipe: a recipe needs a title", "cannot add the recipe: a recipe needs at least one ingredient",
                "cannot add the recipe: a recipe needs at least one step",
            ]),
        ]
        for (action, messages) in cases {
            let outcome = Reducer.reduce(&state, action)
            #expect(outcome.effects.isEmpty && outcome.changes.isEmpty, "\(action)")
            #expect(outcome.errors.map(\.message) == messages)
            #expect(outcome.errors.allSatisfy { $0.kind == .invalidRecord })
        }
        #expect(state.records.count == ReducerTests.files.count)
    }

    @Test func orderingTodosByDateKeepsTheTimeOfDay() {
        var state = StoreState(files: [
            "todos/evening.md": "---\ntitle: Evening\ndate: 2026-12-01T18:00:00\norder: 1\n---\n",
            "todos/morning.md": "---\ntitle: Morning\ndate: 2026-12-01T08:00:00\norder: 2\n---\n",
            "todos/undated.md": "---\ntitle: Someday\norder: 3\n---\n",
            "todos/yesterday.md": "---\ntitle: Yesterday\ndate: 2026-11-30\norder: 4\n---\n",
        ].mapValues { Array($0.utf8) })
        let outcome = Reducer.reduce(&state, .orderTodosByDate)
        #expect(state.todos.map(\.title) == ["Yesterday", "Morning", "Evening", "Someday"])
        #expect(outcome.changes.reordered == [.todo])
    }
}
