import Foundation
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// The bugs an app author found re-implementing the five tutorial apps on Folio
/// (issue 13, first list), each pinned by what it must do now.
@Suite struct AppAuthorFixesTests {
    @Test func lineFeedsAreTrimmedLikeEveryOtherSpace() throws {
        #expect("a\n".trimmingCharacters(in: " \t\r\n") == "a")
        #expect("\n\n a \r\n\n".trimmingCharacters(in: " \t\r\n") == "a")
        #expect("\n".trimmingCharacters(in: " \t\r\n") == "")
        #expect("a\r\n".trimmingCharacters(in: " \t") == "a\r\n")
        let todo = Todo(try Document(text: "---\ntitle: Milk\n---\nSemi-skimmed.\n"))
        #expect(todo.notes == "Semi-skimmed.")
        let quote = Quote(try Document(text: "---\ntext: >\n  Stay hungry,\n  stay foolish.\n---\n"))
        #expect(quote.text == "Stay hungry, stay foolish.")
        let recipe = Recipe(title: "Toast", summary: "Crisp and hot.", ingredients: [Ingredient(name: "Bread")], steps: ["Toast it."])
        #expect(Recipe(try recipe.newDocument()) == recipe)
    }

    @Test(arguments: [
        Ingredient(name: "Sugar", quantity: "1/2 Grams"), Ingredient(name: "salt", quantity: "pinch"),
        Ingredient(name: "Flour", quantity: "200 grams"), Ingredient(name: "Basil", quantity: "a handful of leaves"),
        Ingredient(name: "Tomatoes (ripe)", quantity: "3"), Ingredient(name: "Water"),
    ])
    func everyIngredientReadsBackAsItWasWritten(ingredient: Ingredient) throws {
        let recipe = Recipe(title: "Test", ingredients: [ingredient, Ingredient(name: "Eggs", quantity: "2")], steps: ["Mix."])
        #expect(Recipe(try recipe.newDocument()).ingredients == recipe.ingredients)
        // Added to a recipe that keeps its ingredients as a list in the body.
        let carbonara = try Document(text: ReducerTests.files["recipes/carbonara.md"]!)
        var edited = Recipe(carbonara)
        edited.ingredients.append(ingredient)
        let written = Recipe(try edited.updating(carbonara))
        if ingredient.exactLine != nil { #expect(written.ingredients == edited.ingredients) }
    }

    @Test func ingredientLinesWithQuantitiesInParentheses() {
        #expect(Ingredient(line: "Sugar (1/2 Grams)") == Ingredient(name: "Sugar", quantity: "1/2 Grams"))
        #expect(Ingredient(line: "Salt (pinch)") == Ingredient(name: "Salt", quantity: "pinch"))
        #expect(Ingredient(line: "Tomatoes (ripe)") == Ingredient(name: "Tomatoes (ripe)"))
        #expect(Ingredient(line: "1/2 grams sugar") == Ingredient(name: "sugar", quantity: "1/2 grams"))
        #expect(Ingredient(name: "Sugar", quantity: "1/2 Grams").description == "1/2 Grams Sugar")
        #expect(Ingredient(name: "salt", quantity: "pinch").description == "salt (pinch)")
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

    @Test func aQuoteNeverClosedIsNotImportedButReported() {
        let (quotes, unclosed) = QuoteImport.read("#- a -# #- b")
        #expect(quotes.map(\.text) == ["a"])
        #expect(unclosed.map { [$0.line, $0.column] } == [1, 9])
        let second = QuoteImport.read("#- a -#\n  #- b\nc")
        #expect(second.unclosedAt.map { [$0.line, $0.column] } == [2, 3])
        #expect(QuoteImport.read("#- a -#").unclosedAt == nil)
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
