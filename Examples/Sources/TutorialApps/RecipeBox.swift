import Folio

/// The recipe box's model: recipes in `recipes/`, found by query ("quick pasta"),
/// scaled to the servings wanted, and new ones saved under the name the user gives.
@MainActor
public final class RecipeBox {
    public let store: Store

    public init(_ folder: String) async throws { store = try await Store.load(folder) }

    /// The recipes a query finds (`tag:pasta time<=30m`), as recipes, kept current.
    public func find(_ query: String) throws(QueryError) -> LiveValues<Recipe> { try store.liveQuery(Recipe.self, query) }

    /// The recipe at `path` for `servings` people; nil when it says no servings.
    public func recipe(at path: String, servings: Int) -> Recipe? {
        store.value(Recipe.self, at: path)?.scaled(toServings: servings)
    }

    /// Saves a new recipe as `name.md` in `recipes/`, or says why it cannot be saved.
    @discardableResult
    public func save(_ recipe: Recipe, as name: String) async -> ActionResult { await store.add(recipe, named: name) }
}
