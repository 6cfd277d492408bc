#if canImport(SwiftUI)
import Folio
import SwiftUI

/// The recipe book: a list that follows the folder (a recipe edited in vim shows at once).
public struct RecipeBookView: View {
    let book: RecipeBook

    /// The view of `book`.
    public init(book: RecipeBook) { self.book = book }

    /// The list of recipes, each opening its ingredients and steps.
    public var body: some View {
        NavigationStack {
            List(book.store.recipes) { record in
                NavigationLink(record.title) { RecipeDetailView(recipe: book.store.state.recipe(at: record.path)) }
            }
            .navigationTitle("Recipes")
            .task { await book.addMockData() }
        }
    }
}

struct RecipeDetailView: View {
    let recipe: Recipe?

    var body: some View {
        if let recipe {
            List {
                Section { Text(recipe.summary) }
                Section("Ingredients") { ForEach(recipe.ingredients, id: \.self) { Text($0.description) } }
                Section("Steps") {
                    ForEach(Array(recipe.steps.enumerated()), id: \.offset) { Text("\($0.offset + 1). \($0.element)") }
                }
            }
            .navigationTitle(recipe.title)
        } else {
            Text("This recipe changed on disk.")
        }
    }
}
#endif
