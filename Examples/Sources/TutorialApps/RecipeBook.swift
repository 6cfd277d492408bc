import Folio

/// The SwiftUI recipe book's model: recipes with a title, a description, a time,
/// ingredients (name and quantity) and steps, kept as Markdown files in `recipes/`;
/// a recipe can be saved only with a title, an ingredient and a step; mock data to
/// start from.
@MainActor
public final class RecipeBook {
    /// The folder's store.
    public let store: Store

    /// The book over `store`.
    public init(store: Store) { self.store = store }

    /// The recipes, by title: the store keeps the list; each is read from its file.
    public var recipes: [Recipe] {
        store.recipes.compactMap { store.state.recipe(at: $0.path) }.sorted { $0.title < $1.title }
    }

    /// Whether the book would save `recipe` (the tutorial's `canBeSaved`).
    public static func canBeSaved(_ recipe: Recipe) -> Bool { recipe.problems.isEmpty }

    /// Saves a new recipe; the result has its file's path, or why it was refused.
    @discardableResult
    public func add(_ recipe: Recipe) async -> ActionResult { await store.dispatch(.addRecipe(recipe)) }

    /// The tutorial's mock data, added to an empty book.
    public func addMockData() async {
        guard store.recipes.isEmpty else { return }
        for recipe in Self.mockRecipes { await add(recipe) }
    }

    /// Two recipes to start from.
    public static let mockRecipes = [
        Recipe(title: "Pasta alla Carbonara", summary: "Eggs, guanciale and pecorino.", time: TimeSpan("20m"),
               ingredients: [Ingredient(name: "Spaghetti", quantity: "400g"), Ingredient(name: "Eggs", quantity: "4")],
               steps: ["Boil the pasta.", "Fry the guanciale.", "Mix with the eggs off the heat."]),
        Recipe(title: "Tomato soup", summary: "Bright and quick.", time: TimeSpan("30m"),
               ingredients: [Ingredient(name: "Tomatoes", quantity: "800g"), Ingredient(name: "Onion", quantity: "1")],
               steps: ["Soften the onion.", "Simmer the tomatoes.", "Blend."]),
    ]
}
