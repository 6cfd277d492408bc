import Foundation
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// The typed views read what apps write, as the store hands them documents: line feeds
/// trimmed like any space, every ingredient read back as written, a quote left open
/// reported where it opens.
@Suite struct TypedViewReadingTests {
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

}
