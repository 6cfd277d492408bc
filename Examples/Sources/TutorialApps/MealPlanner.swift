import Folio

/// A meal planner over a recipe folder: recipes picked for a week, each scaled to the
/// number eating, and the shopping list they add up to (quantities of one ingredient
/// in one unit summed exactly).
@MainActor
public final class MealPlanner {
    /// The folder's store.
    public let store: Store

    /// The planner over `store`.
    public init(store: Store) { self.store = store }

    /// The recipe at `path` for `people`; nil when it is not a recipe or does not say
    /// how many it serves.
    public func recipe(at path: String, for people: Int) -> Recipe? {
        store.value(Recipe.self, at: path)?.scaled(toServings: people)
    }

    /// What to buy for `plan` (recipe paths) with `people` eating: each ingredient's
    /// scaled quantities, summed where they are exact and in one unit.
    public func shoppingList(_ plan: [String], for people: Int) -> [String] {
        var totals: [String: (amount: Fraction, unit: String)] = [:], order: [String] = [], loose: [String] = []
        for ingredient in plan.compactMap({ recipe(at: $0, for: people) }).flatMap(\.ingredients) {
            let key = ingredient.name.lowercased(), unit = ingredient.quantity?.unit ?? ""
            guard let amount = ingredient.quantity?.exactAmount else {
                loose.append(ingredient.description)
                continue
            }
            guard let total = totals[key] else {
                (totals[key], order) = ((amount, unit), order + [key])
                continue
            }
            guard total.unit == unit, let sum = total.amount.adding(amount) else {
                loose.append(ingredient.description)
                continue
            }
            totals[key] = (sum, unit)
        }
        return order.map { key in
            let (amount, unit) = totals[key]!
            return Ingredient(name: key, quantity: Quantity(amount.description + (unit.isEmpty ? "" : " " + unit))).description
        } + loose
    }
}
