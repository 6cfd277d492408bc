import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct RecipeFormTests {
    @Test func aFilledFormIsTrimmedSavedAndReadsBackAsTheSameForm() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var form = RecipeForm()
        form.name = "  Shortbread \n"
        form.summary = "Buttery.\n"
        form.prepTime = " 15m"
        form.cookTime = "20m"
        form.totalTime = "35m"
        form.servings = 12
        form.highlights = ["  Three ingredients ", ""]
        form.directions = ["Cream butter and sugar.", "  ", "Bake.\n"]
        form.ingredients = [
            .init(name: "Sugar", number: 1, denominator: 2, unit: "Grams"), .init(name: " Butter ", number: 250, unit: "g"),
            .init(name: "Flour", number: 3, denominator: 2, unit: "cups"), .init(name: "Salt", number: 1, unit: "pinch"),
            .init(name: "", number: 9, unit: "g"),
        ]
        let path = try await form.save(to: store).get()
        #expect(path == "recipes/shortbread.md")
        let saved = try #require(store.state.recipe(at: path))
        var expected = form
        expected.name = "Shortbread"
        expected.summary = "Buttery."
        expected.highlights = ["Three ingredients"]
        expected.directions = ["Cream butter and sugar.", "Bake."]
        expected.ingredients = [
            .init(name: "Sugar", number: 1, denominator: 2, unit: "Grams"), .init(name: "Butter", number: 250, unit: "g"),
            .init(name: "Flour", number: 3, denominator: 2, unit: "cups"), .init(name: "Salt", number: 1, unit: "pinch"),
        ]
        expected.prepTime = "15m"
        #expect(RecipeForm(saved) == expected)
        // And from a fresh load of the folder.
        #expect(try await Store.load(folder).state.recipe(at: path).map(RecipeForm.init) == expected)
    }

    /// Editing a saved recipe in the form and saving it unchanged keeps every quantity as
    /// the file had it, word quantities and glued units included.
    @Test func aRecipeEditedInTheFormKeepsItsQuantitiesAsWritten() throws {
        let recipe = Recipe(title: "Salad", ingredients: [Ingredient(name: "Salt", quantity: "to taste"), Ingredient(name: "Feta", quantity: "400g"),
                                                         Ingredient(name: "Oil", quantity: "2 tbsp")], steps: ["Toss."])
        var form = RecipeForm(recipe)
        #expect(try form.recipe().get().ingredients == recipe.ingredients)
        form.ingredients[2].number = 3
        #expect(try form.recipe().get().ingredients.map { $0.quantity?.text } == ["to taste", "400g", "3 tbsp"])
    }

    @Test func anEmptyFormIsRefusedWithEveryProblem() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var form = RecipeForm()
        form.name = "   "
        form.cookTime = "soon"
        let refused = await form.save(to: store)
        #expect(refused == .failure(FormProblems(messages: [
            "cook time 'soon' is not a time: write it as 15m or 1h30m", "a recipe needs a title",
            "a recipe needs at least one ingredient", "a recipe needs at least one step",
        ])))
        #expect(store.recipes.isEmpty)
    }
}
