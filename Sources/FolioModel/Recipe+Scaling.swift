extension Recipe {
    /// The recipe for `servings`: every ingredient's quantity times `servings` over the
    /// recipe's own (``Quantity/scaled(by:)``: exact fractions, units as written), and
    /// `servings` set. Nil when the recipe does not say how many it serves, or either
    /// number is not positive.
    public func scaled(toServings servings: Int) -> Recipe? {
        guard let own = self.servings, own > 0, servings > 0, let factor = Fraction(servings, own) else { return nil }
        var scaled = self
        scaled.servings = servings
        // Each changed in place: one whose quantity does not scale (`to taste`) stays as written, and the rest keep their form.
        scaled.ingredients = ingredients.map { ingredient in
            var scaled = ingredient
            scaled.quantity = ingredient.quantity?.scaled(by: factor)
            return scaled
        }
        return scaled
    }
}
