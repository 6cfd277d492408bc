extension Recipe {
    /// The recipe for `servings`: every ingredient's quantity times `servings` over the
    /// recipe's own (``Quantity/scaled(by:)``: exact fractions, units as written), and
    /// `servings` set. Nil when the recipe does not say how many it serves, or either
    /// number is not positive.
    public func scaled(toServings servings: Int) -> Recipe? {
        guard let own = self.servings, own > 0, servings > 0, let factor = Fraction(servings, own) else { return nil }
        var scaled = self
        scaled.servings = servings
        scaled.ingredients = ingredients.map { Ingredient(name: $0.name, quantity: $0.quantity?.scaled(by: factor)) }
        return scaled
    }
}
