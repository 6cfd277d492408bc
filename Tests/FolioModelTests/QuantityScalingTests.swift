import Testing
@testable import FolioModel

/// Quantities that compute: exact fractions in lowest terms, mixed numbers, units kept as written.
@Suite struct QuantityScalingTests {
    @Test func fractionsAreKeptInLowestTerms() throws {
        #expect(Fraction(6, 4) == Fraction(3, 2))
        #expect(Fraction(6, 4)?.description == "1 1/2")
        #expect(Fraction(3, -6)?.description == "-1/2")
        #expect(Fraction(-7, 2)?.description == "-3 1/2")
        #expect(Fraction(8, 4)?.description == "2")
        #expect(Fraction(1, 0) == nil)
        let threeQuarters = try #require(Fraction(3, 4))
        #expect(threeQuarters.multiplied(by: try #require(Fraction(4, 3))) == Fraction(1))
        #expect(Fraction(Int.max, 1)?.multiplied(by: try #require(Fraction(2))) == nil)
        #expect(try #require(Fraction(1, 3)) < threeQuarters)
    }

    @Test(arguments: [
        ("400g", 3, 2, "600g"),
        ("3/4 cup", 2, 1, "1 1/2 cup"),
        ("1 1/2 cups", 2, 3, "1 cups"),
        ("½ tsp", 3, 1, "1 1/2 tsp"),
        ("1½ tbsp", 1, 3, "1/2 tbsp"),
        ("2", 1, 4, "1/2"),
        ("1.5 kg", 2, 1, "3 kg"),
        ("0,5 l", 1, 3, "0.167 l"),
        ("to taste", 5, 1, "to taste"),
        ("6/4 cup", 1, 1, "1 1/2 cup"),
    ])
    func aQuantityScalesWithItsUnitAsWritten(text: String, numerator: Int, denominator: Int, expected: String) throws {
        let factor = try #require(Fraction(numerator, denominator))
        #expect(Quantity(text).scaled(by: factor).text == expected)
    }

    @Test func theExactAmountIsReadFromWholesAndFractionsOnly() {
        #expect(Quantity("1 1/2 cups").exactAmount == Fraction(3, 2))
        #expect(Quantity("1½").exactAmount == Fraction(3, 2))
        #expect(Quantity("1.5 cups").exactAmount == nil)
        #expect(Quantity("a pinch").exactAmount == nil)
    }

    @Test func aRecipeScalesToServings() throws {
        let recipe = Recipe(
            title: "Pancakes", servings: 4,
            ingredients: [Ingredient(line: "1 1/2 cups flour"), Ingredient(line: "3 eggs"), Ingredient(line: "Salt (pinch)"), Ingredient(line: "Butter")],
            steps: ["Mix.", "Fry."])
        let six = try #require(recipe.scaled(toServings: 6))
        #expect(six.servings == 6)
        #expect(six.ingredients.map(\.description) == ["2 1/4 cups flour", "4 1/2 eggs", "Salt (pinch)", "Butter"])
        #expect(six.steps == recipe.steps && six.title == recipe.title)
        #expect(recipe.scaled(toServings: 0) == nil)
        var unsaid = recipe
        unsaid.servings = nil
        #expect(unsaid.scaled(toServings: 2) == nil)
    }
}
