import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct MealPlannerTests {
    @Test func recipesAreScaledAndTheirIngredientsSummedExactly() async throws {
        let (store, folder) = try await temporaryStore([
            "recipes/pancakes.md": "---\ntitle: Pancakes\nservings: 4\n---\n## Ingredients\n- 1 1/2 cups flour\n- 3 eggs\n- Salt (pinch)\n\n## Steps\n1. Mix.\n",
            "recipes/crepes.md": "---\ntitle: Crepes\nservings: 2\n---\n## Ingredients\n- 1/2 cups flour\n- 1 eggs\n- 250 ml milk\n\n## Steps\n1. Mix.\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let planner = MealPlanner(store: store)
        #expect(planner.recipe(at: "recipes/pancakes.md", for: 6)?.ingredients.map(\.description) == ["2 1/4 cups flour", "4 1/2 eggs", "Salt (pinch)"])
        #expect(planner.shoppingList(["recipes/pancakes.md", "recipes/crepes.md"], for: 6)
                == ["3 3/4 cups flour", "7 1/2 eggs", "750 ml milk", "Salt (pinch)"])
    }
}
