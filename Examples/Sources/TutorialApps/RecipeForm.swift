import Folio
import Foundation

/// The recipe form: name, summary, prep/cook/total time, servings, highlights,
/// directions, and ingredients as a number, a denominator and a unit — every text
/// trimmed, empty lines dropped, and a recipe without name, ingredient or direction
/// refused with every problem listed.
public struct RecipeForm: Sendable, Equatable {
    /// One ingredient row: `1/2 cup Sugar` is number 1, denominator 2, unit `cup`.
    public struct IngredientRow: Sendable, Equatable {
        /// What it is.
        public var name: String
        /// How many (the numerator of a fraction).
        public var number: Double
        /// The denominator of a fraction, nil for a whole or decimal number.
        public var denominator: Int?
        /// Any unit, known to Folio or not (empty: none).
        public var unit: String
        /// The quantity as the file had it (`to taste`, `400g`), kept while the row's
        /// parts are unchanged, so that editing a recipe does not rewrite them.
        var saved: Quantity?

        /// A row.
        public init(name: String, number: Double, denominator: Int? = nil, unit: String = "") {
            (self.name, self.number, self.denominator, self.unit) = (name, number, denominator, unit)
        }

        /// The quantity the row holds.
        var quantity: Quantity? {
            if let saved, saved.number ?? 0 == number, saved.denominator == denominator, saved.unit ?? "" == unit { return saved }
            let unit = unit.trimmingCharacters(in: .whitespacesAndNewlines)
            return number > 0 ? Quantity(number: number, denominator: denominator, unit: unit.isEmpty ? nil : unit) : nil
        }

        /// Rows compare by what the user sees.
        public static func == (a: IngredientRow, b: IngredientRow) -> Bool {
            (a.name, a.number, a.denominator, a.unit) == (b.name, b.number, b.denominator, b.unit)
        }
    }

    /// The fields as typed.
    public var name = "", summary = "", prepTime = "", cookTime = "", totalTime = ""
    /// How many it serves.
    public var servings = 0
    /// One line each.
    public var highlights: [String] = [], directions: [String] = []
    /// The ingredient rows.
    public var ingredients: [IngredientRow] = []

    /// An empty form.
    public init() {}

    /// The form filled from a saved recipe, for editing.
    public init(_ recipe: Recipe) {
        name = recipe.title
        summary = recipe.summary
        prepTime = recipe.prepTime?.description ?? ""
        cookTime = recipe.cookTime?.description ?? ""
        totalTime = recipe.time?.description ?? ""
        servings = recipe.servings ?? 0
        highlights = recipe.highlights
        directions = recipe.steps
        ingredients = recipe.ingredients.map { ingredient in
            var row = IngredientRow(name: ingredient.name, number: ingredient.quantity?.number ?? 0,
                                    denominator: ingredient.quantity?.denominator, unit: ingredient.quantity?.unit ?? "")
            row.saved = ingredient.quantity
            return row
        }
    }

    /// The recipe the form describes, trimmed; or every problem that keeps it from being saved.
    public func recipe() -> Result<Recipe, FormProblems> {
        func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
        func lines(_ list: [String]) -> [String] { list.map(trimmed).filter { !$0.isEmpty } }
        var problems: [String] = []
        func time(_ text: String, _ label: String) -> TimeSpan? {
            guard !trimmed(text).isEmpty else { return nil }
            guard let span = TimeSpan(trimmed(text)) else {
                problems.append("\(label) '\(trimmed(text))' is not a time: write it as 15m or 1h30m")
                return nil
            }
            return span
        }
        let rows = ingredients.filter { !trimmed($0.name).isEmpty }
        let recipe = Recipe(
            title: trimmed(name), summary: trimmed(summary), time: time(totalTime, "total time"), prepTime: time(prepTime, "prep time"),
            cookTime: time(cookTime, "cook time"), servings: servings > 0 ? servings : nil, highlights: lines(highlights),
            ingredients: rows.map { Ingredient(name: trimmed($0.name), quantity: $0.quantity) },
            steps: lines(directions))
        problems += recipe.problems
        return problems.isEmpty ? .success(recipe) : .failure(FormProblems(messages: problems))
    }

    /// Saves the form as a new recipe; the result has its file's path, or why not.
    public func save(to store: Store) async -> Result<String, FormProblems> {
        switch recipe() {
        case .failure(let problems): return .failure(problems)
        case .success(let recipe):
            let result = await store.dispatch(.addRecipe(recipe))
            guard let path = result.createdPath, result.succeeded else { return .failure(FormProblems(messages: result.errors.map(\.message))) }
            return .success(path)
        }
    }
}

/// Why a form cannot be saved: one sentence per problem.
public struct FormProblems: Error, Sendable, Equatable {
    /// The problems, in the form's order.
    public var messages: [String]

    /// Problems, one sentence each.
    public init(messages: [String]) { self.messages = messages }
}
