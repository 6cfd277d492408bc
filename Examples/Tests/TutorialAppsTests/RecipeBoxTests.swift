import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct RecipeBoxTests {
    @Test func recipesAreFoundScaledAndSavedUnderTheirName() async throws {
        let (_, folder) = try await temporaryStore([
            "recipes/carbonara.md": "---\ntitle: Carbonara\ntime: 20m\nservings: 2\ntags: [pasta]\n---\n## Ingredients\n- spaghetti (200g)\n- salt (to taste)\n- chilli flakes (a pinch)\n\n## Steps\n1. Boil.\n",
            "recipes/ragu.md": "---\ntitle: Ragù\ntime: 3h\nservings: 6\ntags: [pasta]\n---\n## Ingredients\n- beef (1kg)\n\n## Steps\n1. Simmer.\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let box = try await RecipeBox(folder)
        let quick = try box.find("tag:pasta time<=30m")
        #expect(quick.values.map(\.title) == ["Carbonara"])
        let forFour = try #require(box.recipe(at: "recipes/carbonara.md", servings: 4))
        #expect(forFour.ingredients.map(\.description) == ["spaghetti (400g)", "salt (to taste)", "chilli flakes (a pinch)"])
        let soup = Recipe(title: "Tomato soup", time: TimeSpan("25m"), tags: ["pasta"], ingredients: [Ingredient(line: "tomatoes (800g)")], steps: ["Simmer."])
        #expect(await box.save(soup, as: "nonna's soup").createdPath == "recipes/nonna's soup.md")
        #expect(quick.values.map(\.title) == ["Carbonara", "Tomato soup"])
        let refused = await box.save(Recipe(title: "Nothing"), as: "nothing")
        #expect(refused.errors.map(\.message) == [
            "cannot add the recipe: a recipe needs ingredients: add an '## Ingredients' list or 'ingredients:'",
            "cannot add the recipe: a recipe needs steps: add a '## Steps' list or 'steps:'",
        ])
    }
}
