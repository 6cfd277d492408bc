import FolioFormat

/// A recipe, read from a document wherever the file keeps each part, and written
/// back to the same places with minimal edits.
public struct Recipe: Sendable, Hashable {
    /// The name of the dish.
    public var title: String
    /// The description: a `summary:`/`description:` field, else the body text before the first heading.
    public var summary: String
    /// `time:` (or `totalTime:`), how long it all takes.
    public var time: TimeSpan?
    /// `prepTime:`.
    public var prepTime: TimeSpan?
    /// `cookTime:`.
    public var cookTime: TimeSpan?
    /// How many it serves.
    public var servings: Int?
    /// Tags.
    public var tags: [String]
    /// Short selling points.
    public var highlights: [String]
    /// From a `## Ingredients` section's bullets or an `ingredients:` list.
    public var ingredients: [Ingredient]
    /// From a `## Steps`/`## Directions` section or a `steps:`/`directions:` list.
    public var steps: [String]

    static let titleKeys = ["title", "name"]
    static let summaryKeys = ["summary", "description"]
    static let timeKeys = ["time", "totalTime", "total_time", "totaltime"]
    static let prepKeys = ["prepTime", "prep_time", "prep"]
    static let cookKeys = ["cookTime", "cook_time", "cook"]
    static let servingsKeys = ["servings", "serves", "yield"]
    static let stepsKeys = ["steps", "directions", "instructions", "method"]
    static let ingredientSections = ["ingredients", "ingredienti"]
    static let stepSections = ["steps", "directions", "instructions", "method", "preparazione", "procedimento"]

    /// A new recipe.
    public init(
        title: String, summary: String = "", time: TimeSpan? = nil, prepTime: TimeSpan? = nil, cookTime: TimeSpan? = nil,
        servings: Int? = nil, tags: [String] = [], highlights: [String] = [], ingredients: [Ingredient] = [], steps: [String] = []
    ) {
        self.title = title.trimmingCharacters(in: " \t")
        self.summary = summary
        self.time = time
        self.prepTime = prepTime
        self.cookTime = cookTime
        self.servings = servings
        self.tags = tags
        self.highlights = highlights
        self.ingredients = ingredients
        self.steps = steps
    }

    /// Reads a recipe from a document.
    public init(_ document: Document) {
        let fields = document.fields
        func value(_ keys: [String]) -> YAMLValue? { keys.lazy.compactMap { fields[$0] }.first }
        title = value(Recipe.titleKeys)?.text ?? ""
        summary = value(Recipe.summaryKeys)?.text
            ?? Markdown.leadText(in: document.bytes, range: document.layout.body)
        time = Recipe.time(in: fields)
        prepTime = value(Recipe.prepKeys).flatMap(TimeSpan.init)
        cookTime = value(Recipe.cookKeys).flatMap(TimeSpan.init)
        servings = value(Recipe.servingsKeys)?.intValue
        tags = fields["tags"]?.stringList ?? []
        highlights = fields["highlights"]?.stringList ?? []
        if let list = fields["ingredients"]?.sequenceValue {
            ingredients = list.compactMap(Recipe.ingredient)
        } else if let section = Recipe.section(in: document, titles: Recipe.ingredientSections) {
            ingredients = Markdown.listItems(in: document.bytes, range: section.contentRange)
                .map { Ingredient(line: $0.text) }.filter { !$0.name.isEmpty }
        } else {
            ingredients = []
        }
        if let list = value(Recipe.stepsKeys)?.sequenceValue {
            steps = list.compactMap(\.text).filter { !$0.isEmpty }
        } else if let section = Recipe.section(in: document, titles: Recipe.stepSections) {
            steps = Markdown.listItems(in: document.bytes, range: section.contentRange).map(\.text).filter { !$0.isEmpty }
        } else {
            steps = []
        }
    }

    /// Whether `document`, read as a recipe, has a title, an ingredient and a step: what
    /// validation asks, answered as ``init(_:)`` would, stopping at the first ingredient
    /// and step found (a whole read parses every quantity, which validation never looks at).
    static func essentials(of document: Document) -> (title: Bool, ingredients: Bool, steps: Bool) {
        let fields = document.fields
        func value(_ keys: [String]) -> YAMLValue? { keys.lazy.compactMap { fields[$0] }.first }
        let title = !(value(Recipe.titleKeys)?.text ?? "").isEmpty
        // The body's sections found once, for both lists (each lookup would read the whole body).
        var sections: [MarkdownSection]?
        func section(_ titles: [String]) -> MarkdownSection? {
            if sections == nil { sections = Markdown.sections(in: document.bytes, range: document.layout.body) }
            return sections?.first { titles.contains($0.title.lowercased()) }
        }
        let ingredients: Bool
        if let list = fields["ingredients"]?.sequenceValue {
            ingredients = list.contains { Recipe.ingredient($0) != nil }
        } else if let section = section(Recipe.ingredientSections) {
            ingredients = Markdown.listItems(in: document.bytes, range: section.contentRange).contains { !Ingredient(line: $0.text).name.isEmpty }
        } else {
            ingredients = false
        }
        let steps: Bool
        if let list = value(Recipe.stepsKeys)?.sequenceValue {
            steps = list.contains { !($0.text ?? "").isEmpty }
        } else if let section = section(Recipe.stepSections) {
            steps = Markdown.listItems(in: document.bytes, range: section.contentRange).contains { !$0.text.isEmpty }
        } else {
            steps = false
        }
        return (title, ingredients, steps)
    }

    /// The recipe's time from its fields alone (`time:` or `totalTime:`), without reading the body.
    public static func time(in fields: YAMLMapping) -> TimeSpan? {
        timeKeys.lazy.compactMap { fields[$0] }.first.flatMap(TimeSpan.init)
    }

    static func ingredient(_ value: YAMLValue) -> Ingredient? {
        if let map = value.mappingValue {
            guard let name = map["name"]?.text ?? map["item"]?.text, !name.isEmpty else { return nil }
            return Ingredient(name: name, quantity: (map["quantity"] ?? map["amount"])?.text)
        }
        guard let text = value.text, !text.isEmpty else { return nil }
        return Ingredient(line: text)
    }

    /// An ingredient as front matter holds it: `{name: Sugar, quantity: 1/2 Grams}`.
    static func mapping(of ingredient: Ingredient) -> YAMLValue {
        var map: YAMLMapping = ["name": .string(ingredient.name)]
        if let quantity = ingredient.quantity { map["quantity"] = .string(quantity.text) }
        return .mapping(map)
    }

    static func section(in document: Document, titles: [String]) -> MarkdownSection? {
        Markdown.sections(in: document.bytes, range: document.layout.body).first { titles.contains($0.title.lowercased()) }
    }

    /// Whether an app could save it: a title, at least one ingredient and one step.
    public var problems: [String] {
        var problems: [String] = []
        if title.isEmpty { problems.append("a recipe needs a title") }
        if ingredients.isEmpty { problems.append("a recipe needs at least one ingredient") }
        if steps.isEmpty { problems.append("a recipe needs at least one step") }
        return problems
    }

    /// `document` with this recipe's changed parts written where the file keeps them.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Recipe(document)
        var writer = FieldWriter(document: document)
        if title != old.title { try writer.set(firstKey(Recipe.titleKeys, in: document), .string(title)) }
        if summary != old.summary {
            if let key = Recipe.summaryKeys.first(where: { document[$0] != nil }) {
                try writer.set(key, .string(summary))
            } else {
                let body = writer.document.layout.body
                let end = Markdown.sections(in: writer.document.bytes, range: body).first?.headingRange.lowerBound ?? body.upperBound
                try writer.document.replaceBody(body.lowerBound..<end, with: summary.isEmpty ? "" : summary + (end < body.upperBound ? "\n\n" : "\n"))
            }
        }
        for (keys, new, previous) in [(Recipe.timeKeys, time, old.time), (Recipe.prepKeys, prepTime, old.prepTime), (Recipe.cookKeys, cookTime, old.cookTime)]
        where new != previous {
            let key = firstKey(keys, in: document)
            let keepSeconds = if case .int? = document[key] { true } else { false }
            try writer.set(key, new.map { keepSeconds ? .int($0.seconds) : .string($0.description) })
        }
        if servings != old.servings { try writer.set(firstKey(Recipe.servingsKeys, in: document), servings.map(YAMLValue.int)) }
        if tags != old.tags { try writer.setList("tags", from: old.tags.map(YAMLValue.string), to: tags.map(YAMLValue.string)) }
        if highlights != old.highlights {
            try writer.setList("highlights", from: old.highlights.map(YAMLValue.string), to: highlights.map(YAMLValue.string))
        }
        if ingredients != old.ingredients {
            if let list = document["ingredients"]?.sequenceValue {
                let asMaps = list.first?.mappingValue != nil
                func encode(_ ingredient: Ingredient) -> YAMLValue {
                    asMaps ? Recipe.mapping(of: ingredient) : .string(ingredient.description)
                }
                // Items that did not change keep their exact values (e.g. `quantity: 1` as a number).
                let newValues = ingredients.enumerated().map { index, ingredient in
                    index < old.ingredients.count && old.ingredients[index] == ingredient && index < list.count ? list[index] : encode(ingredient)
                }
                try writer.setList("ingredients", from: list, to: newValues)
            } else {
                try writer.setSectionList(
                    titles: Recipe.ingredientSections, heading: "Ingredients", from: old.ingredients.map(\.description),
                    to: ingredients.map(\.description), numbered: false)
            }
        }
        if steps != old.steps {
            if let key = Recipe.stepsKeys.first(where: { document[$0]?.sequenceValue != nil }) {
                try writer.setList(key, from: document[key]?.sequenceValue ?? [], to: steps.map(YAMLValue.string))
            } else {
                try writer.setSectionList(titles: Recipe.stepSections, heading: "Steps", from: old.steps, to: steps, numbered: true)
            }
        }
        return writer.document
    }

    /// A new file for this recipe, in the layout of the tutorials: front matter, the
    /// summary, `## Ingredients` and `## Steps`.
    public func newDocument() throws(FormatError) -> Document {
        var fields: YAMLMapping = ["title": .string(title), "kind": .string("recipe")]
        if let time { fields["time"] = .string(time.description) }
        if let prepTime { fields["prepTime"] = .string(prepTime.description) }
        if let cookTime { fields["cookTime"] = .string(cookTime.description) }
        if let servings { fields["servings"] = .int(servings) }
        if !tags.isEmpty { fields["tags"] = .sequence(tags.map(YAMLValue.string)) }
        if !highlights.isEmpty { fields["highlights"] = .sequence(highlights.map(YAMLValue.string)) }
        var body = summary.isEmpty ? "" : summary + "\n\n"
        if ingredients.allSatisfy({ $0.exactLine != nil }) {
            body += "## Ingredients\n" + ingredients.map { "- \($0)\n" }.joined()
        } else {
            // An ingredient no list line can hold exactly: all of them as name and quantity.
            fields["ingredients"] = .sequence(ingredients.map(Recipe.mapping(of:)))
        }
        body += (body.isEmpty || body.hasSuffix("\n\n") ? "" : "\n") + "## Steps\n" + steps.enumerated().map { "\($0.offset + 1). \($0.element)\n" }.joined()
        return try Document(fields: fields, body: body)
    }
}
