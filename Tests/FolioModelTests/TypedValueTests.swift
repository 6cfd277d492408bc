import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel

@Suite struct TypedValueTests {
    @Test(arguments: [("15m", 900), ("1h30m", 5400), ("1h 30min", 5400), ("90", 90), ("PT15M", 900), ("PT1H15M", 4500),
                      ("45s", 45), ("2 hours", 7200), ("1.5h", 5400)])
    func timeSpans(text: String, seconds: Int) {
        #expect(TimeSpan(text)?.seconds == seconds)
    }

    @Test func timeSpansRefuseWhatIsNotOne() {
        for text in ["", "soon", "15x", "P1D", "m"] { #expect(TimeSpan(text) == nil, "\(text)") }
        #expect(TimeSpan(.int(90))?.description == "1m30s")
        #expect(TimeSpan(seconds: 5400).description == "1h30m")
    }

    /// Text is turned away by its first byte past blanks before it is parsed: exactly the
    /// text no form can start with.
    @Test func typedReadsTurnTextAwayByItsFirstByteOnly() {
        for (text, seconds) in [(" \t15m", 900), ("pt15m", 900), ("+90", 90), ("-5", -5), (".5h", 1800), ("\t PT1H", 3600)] {
            #expect(TimeSpan(text)?.seconds == seconds, "\(text)")
        }
        for text in ["Parmesan", "pancetta 15m", "\n15m", "ＰＴ15M", "١٥m", " \t "] { #expect(TimeSpan(text) == nil, "\(text)") }
        for (text, number) in [(" 1.5", 1.5), ("\t-2", -2), ("+3", 3), (".5", 0.5), (".inf", Double.infinity), ("0x10", 16)] {
            #expect(YAMLValue.string(text).doubleValue == number, "\(text)")
        }
        for text in ["eggs", "inf", "nan", "１", "x1"] { #expect(YAMLValue.string(text).doubleValue == nil, "\(text)") }
        for (text, flag) in [("YES", true), ("Done", true), ("x", true), ("FALSE", false), ("", false)] {
            #expect(YAMLValue.string(text).boolValue == flag, "\(text)")
        }
        for text in ["yesss!", "Donee", "falsely"] { #expect(YAMLValue.string(text).boolValue == nil, "\(text)") }
    }

    /// As written, until changed; equal to any other spelling of the same length.
    @Test func aTimeSpanDescribesItselfAsWritten() throws {
        for text in ["1h05m", "1 h 30 min", "PT15M", "90 minutes"] { #expect(TimeSpan(text)?.description == text) }
        var span = try #require(TimeSpan(" 1h05m "))
        #expect(span.description == "1h05m" && span == TimeSpan(seconds: 3900) && span.hashValue == TimeSpan(seconds: 3900).hashValue)
        span.seconds += 60
        #expect(span.description == "1h6m")
    }

    /// As written (the name first when it was), until changed; a quantity in words in
    /// parentheses (`(to taste)`, `(a pinch)`, `(pinch)`) read alike.
    @Test func anIngredientDescribesItselfAsWritten() {
        let salt = Ingredient(line: "salt (to taste)")
        #expect(salt.name == "salt" && salt.quantity?.text == "to taste" && salt.description == "salt (to taste)" && salt.exactLine == "salt (to taste)")
        #expect(salt == Ingredient(line: "to taste salt"))
        let chilli = Ingredient(line: "chilli flakes (a pinch)")
        #expect(chilli.name == "chilli flakes" && chilli.quantity?.text == "a pinch", "\(chilli)")
        #expect(Ingredient(line: "salt (pinch)").quantity?.text == "pinch")
        #expect(Ingredient(line: "Tomatoes (ripe)").quantity == nil && Ingredient(line: "Tomatoes (a few)").quantity == nil)
        var renamed = salt
        renamed.name = "sea salt"
        #expect(renamed.description == "sea salt (to taste)" && Ingredient(line: renamed.description) == renamed)
        // The form is the one the line was read in: a name that ends in parentheses is not a trailing quantity.
        var egg = Ingredient(line: "1 egg (1 cup)")
        egg.quantity = Quantity("2")
        #expect(egg.description == "2 egg (1 cup)" && Ingredient(line: egg.description) == egg, "\(egg)")
    }

    @Test func quantities() {
        #expect(Quantity("1/2 cup").amount == 0.5 && Quantity("1/2 cup").unit == "cup")
        #expect(Quantity("1 1/2 tbsp").amount == 1.5 && Quantity("1 1/2 tbsp").unit == "tbsp")
        #expect(Quantity("400g").amount == 400 && Quantity("400g").unit == "g")
        #expect(Quantity("½ tsp").amount == 0.5)
        #expect(Quantity("1½").amount == 1.5)
        #expect(Quantity("A piacere").amount == nil && Quantity("A piacere").text == "A piacere")
    }

    @Test func ingredientLines() {
        #expect(Ingredient(line: "400g Spaghetti") == Ingredient(name: "Spaghetti", quantity: "400g"))
        #expect(Ingredient(line: "4 Uova") == Ingredient(name: "Uova", quantity: "4"))
        #expect(Ingredient(line: "1 1/2 cups flour, sifted") == Ingredient(name: "flour, sifted", quantity: "1 1/2 cups"))
        #expect(Ingredient(line: "A piacere Pepe nero") == Ingredient(name: "Pepe nero", quantity: "A piacere"))
        #expect(Ingredient(line: "Salt") == Ingredient(name: "Salt"))
        #expect(Ingredient(line: "  2 fette Formaggio  ") == Ingredient(name: "Formaggio", quantity: "2 fette"))
    }

    @Test func carbonaraReadsAsTheTutorialHasIt() throws {
        let path = Corpora.packageRoot.appendingPathComponent("Fixtures/recipes/pasta-alla-carbonara.md").path
        let recipe = Recipe(try Document(bytes: try Corpora.bytes(path)))
        #expect(recipe.title == "Pasta alla Carbonara")
        #expect(recipe.time == TimeSpan(seconds: 900))
        #expect(recipe.servings == 4)
        #expect(recipe.tags == ["pasta", "italian"])
        #expect(recipe.ingredients.count == 6)
        #expect(recipe.ingredients[0] == Ingredient(name: "Spaghetti", quantity: "400g"))
        #expect(recipe.steps.count == 9)
        #expect(recipe.summary.hasPrefix("Autentico piatto di pasta italiano"))
        #expect(recipe.problems.isEmpty)
    }

    @Test func formRecipeReadsFromFrontMatter() throws {
        let path = Corpora.packageRoot.appendingPathComponent("Fixtures/recipes/creamy-tomato-soup.md").path
        let recipe = Recipe(try Document(bytes: try Corpora.bytes(path)))
        #expect(recipe.prepTime == TimeSpan(seconds: 600) && recipe.cookTime == TimeSpan(seconds: 1800))
        #expect(recipe.ingredients.contains(Ingredient(name: "Butter", quantity: "2 tbsp")))
        #expect(!recipe.steps.isEmpty && !recipe.highlights.isEmpty)
    }

    @Test func validationWarnsWithLines() throws {
        let text = "---\nkind: workout\nname: Run\ncomplexity: brutal\ndistance: -3\ndate: 2026-02-30\n---\n"
        let issues = Validation.issues(in: try Document(text: text), kind: .workout, path: "w.md").map(\.description)
        #expect(issues == [
            "w.md:4:13: warning: unknown complexity 'brutal': use low, medium or high",
            "w.md:5:11: warning: distance -3.0 is negative: give the kilometres run",
            "w.md:6:7: warning: '2026-02-30' is not a date: write it as YYYY-MM-DD",
        ])
        let recipe = Validation.issues(in: try Document(text: "---\nkind: recipe\n---\n"), kind: .recipe, path: "r.md")
        #expect(recipe.count == 3)
    }

    /// What validation asks of a recipe is what the whole typed read says, for every way a
    /// recipe can hold (or lack) a title, ingredients and steps.
    @Test(arguments: [
        "---\ntitle: Soup\n---\n## Ingredients\n- 2 cups water\n\n## Steps\n1. Boil.\n",
        "---\nname: Soup\ningredients: [water, {name: salt, quantity: 1 tsp}]\nsteps: [Boil]\n---\n",
        "---\ntitle: Soup\ningredients: [{quantity: 2}, '']\ndirections: ['', Stir]\n---\n",
        "---\ntitle: ''\n---\n## Ingredients\n- 2 cups\n- \n\n## Method\n1. \n",
        "---\ntitle: Soup\n---\n## Ingredienti\n- 1 pinch of salt\n\n## Procedimento\n- Mix\n",
        "---\ntitle: Soup\n---\nNo lists at all.\n",
        "---\ntitle: Soup\nsteps: Boil it\n---\n## Steps\n1. Boil.\n",
    ])
    func recipeEssentialsAgreeWithTheTypedRead(text: String) throws {
        let document = try Document(text: text)
        let recipe = Recipe(document), essentials = Recipe.essentials(of: document)
        #expect(essentials.title == !recipe.title.isEmpty)
        #expect(essentials.ingredients == !recipe.ingredients.isEmpty)
        #expect(essentials.steps == !recipe.steps.isEmpty)
    }

    @Test func kinds() throws {
        let plain = try Document(text: "# x\n")
        #expect(Kind.of(plain, path: "recipes/a.md") == .recipe)
        #expect(Kind.of(plain, path: "_recipes/a.md") == .recipe)
        #expect(Kind.of(plain, path: "Workouts/a.md") == .workout)
        #expect(Kind.of(plain, path: "a.md") == .note)
        #expect(Kind.of(try Document(text: "---\nkind: Todo\n---\n"), path: "x/a.md") == .todo)
    }
}
