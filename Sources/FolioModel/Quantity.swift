import FolioFormat

/// An ingredient's quantity: an amount (`1/2`, `1 1/2`, `½`, `400`) and a unit
/// (`cup`, `g`), or text kept as written (`A piacere`, `to taste`).
public struct Quantity: Sendable, Hashable, CustomStringConvertible {
    /// The quantity as written.
    public var text: String
    /// The amount, when the text starts with one.
    public var amount: Double?
    /// The unit after the amount, if any — any word, known to Folio or not.
    public var unit: String?
    /// The amount as written for a form with a number and a denominator: `1/2` is 1
    /// over 2, `1 1/2` is 3 over 2, `½` is 1 over 2, `400` is 400 (no denominator).
    public var number: Double?
    /// The denominator of a fraction (`2` in `1/2`), nil for a whole or decimal amount.
    public var denominator: Int?

    static let vulgarFractions: [Character: (numerator: Int, denominator: Int)] = [
        "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8),
    ]

    /// A quantity from a form's parts: `Quantity(number: 1, denominator: 2, unit: "cup")`
    /// is `1/2 cup`; it reads back as the same parts for a number of 0 or more written
    /// without an exponent (below 10^15, at least 0.0001), a positive denominator, and a
    /// unit that does not start with a digit.
    public init(number: Double, denominator: Int? = nil, unit: String? = nil) {
        let whole = number == number.rounded() && abs(number) < 1e15
        var text = whole ? String(Int(number)) : YAMLEmitter.floatText(number)
        if let denominator { text += "/\(denominator)" }
        if let unit, !unit.isEmpty { text += " " + unit }
        self.init(text)
    }

    /// Parses a quantity; text with no amount is kept as text.
    public init(_ text: String) {
        self.text = text.trimmingCharacters(in: " \t")
        var rest = Substring(self.text)
        var total = 0.0
        var parts: [Part] = []
        while let (part, length) = Quantity.number(at: rest) {
            total += part.value
            parts.append(part)
            rest = rest.dropFirst(length).drop { $0 == " " }
        }
        let found = !parts.isEmpty
        amount = found ? total : nil
        // As a form holds it: the whole part and one fraction make number over denominator.
        let fractions = parts.filter { $0.denominator != nil }
        if let fraction = fractions.first, fractions.count == 1, let d = fraction.denominator {
            let wholes = parts.filter { $0.denominator == nil }.reduce(0.0) { $0 + $1.value }
            number = wholes * Double(d) + fraction.numerator
            denominator = d
        } else {
            number = found ? total : nil
            denominator = nil
        }
        let unitText = String(rest).trimmingCharacters(in: " \t")
        unit = found && !unitText.isEmpty ? unitText : nil
    }

    /// One number of an amount: its value, and its numerator and denominator when it is a fraction.
    struct Part {
        var value: Double
        var numerator: Double
        var denominator: Int?
    }

    /// A number at the start of `text`: `3`, `1.5`, `1/2`, `½`, `1½`; and its length.
    static func number(at text: Substring) -> (Part, Int)? {
        if let first = text.first, let (n, d) = vulgarFractions[first] {
            return (Part(value: Double(n) / Double(d), numerator: Double(n), denominator: d), 1)
        }
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
        guard !digits.isEmpty, let whole = Double(digits.replacingAll(",", with: ".")) else { return nil }
        let length = digits.count
        let rest = text.dropFirst(length)
        if rest.first == "/" {
            let denominator = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if let d = Int(denominator), d != 0 {
                return (Part(value: whole / Double(d), numerator: whole, denominator: d), length + 1 + denominator.count)
            }
        }
        if let next = rest.first, let (n, d) = vulgarFractions[next] {
            return (Part(value: whole + Double(n) / Double(d), numerator: whole * Double(d) + Double(n), denominator: d), length + 1)
        }
        return (Part(value: whole, numerator: whole, denominator: nil), length)
    }

    /// The quantity as written.
    public var description: String { text }
}

extension Substring {
    func replacingAll(_ target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}

/// One ingredient: its name and, when given, its quantity.
///
/// One read from a line describes itself as that line (`salt (to taste)` stays so, not
/// `to taste salt`), until its name or quantity is changed. Two ingredients of the same
/// name and quantity are equal however written.
public struct Ingredient: Sendable, Hashable, CustomStringConvertible {
    /// What it is: `Spaghetti`.
    public var name: String {
        get { storedName }
        set {
            guard newValue != storedName else { return }
            storedName = newValue
            line = nil
        }
    }
    /// How much: `400g`.
    public var quantity: Quantity? {
        get { storedQuantity }
        set {
            guard newValue != storedQuantity else { return }
            storedQuantity = newValue
            line = nil
        }
    }

    private var storedName: String
    private var storedQuantity: Quantity?
    /// The line it was read from, while it still says ``name`` and ``quantity``.
    private var line: String?
    /// Whether the line put the quantity after the name, in parentheses (`salt (to
    /// taste)`): a changed one is written back the same way (`spaghetti (400g)`).
    private var quantityAfterName = false

    /// Creates an ingredient.
    public init(name: String, quantity: String? = nil) {
        self.init(name: name, quantity: quantity.map(Quantity.init))
    }

    /// Creates an ingredient from a form's parts: `Ingredient(name: "Sugar",
    /// quantity: Quantity(number: 1, denominator: 2, unit: "Grams"))`.
    public init(name: String, quantity: Quantity?) {
        storedName = name.trimmingCharacters(in: " \t")
        storedQuantity = quantity.flatMap { $0.text.isEmpty ? nil : $0 }
    }

    /// Same name and quantity (as written), however the line put them.
    public static func == (a: Ingredient, b: Ingredient) -> Bool { a.name == b.name && a.quantity == b.quantity }

    /// The hash of what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(quantity)
    }

    /// Words that measure, so `2 cups flour` splits as `2 cups` + `flour`.
    static let units: Set<String> = [
        "g", "gr", "kg", "mg", "ml", "l", "dl", "cl", "oz", "lb", "lbs", "cup", "cups", "tbsp", "tsp", "tablespoon",
        "tablespoons", "teaspoon", "teaspoons", "pinch", "clove", "cloves", "slice", "slices", "can", "cans", "stick",
        "sticks", "package", "packages", "pound", "pounds", "ounce", "ounces", "quart", "pint", "fetta", "fette", "foglia", "foglie",
        "cucchiaio", "cucchiai", "cucchiaino", "cucchiaini", "spicchi", "spicchio", "bicchiere", "pizzico", "etto",
        "gram", "grams", "gramme", "grammes", "grammi", "kilogram", "kilograms", "litre", "litres", "liter", "liters",
        "millilitre", "millilitres", "milliliter", "milliliters", "piece", "pieces", "bunch", "bunches", "handful",
        "handfuls", "sprig", "sprigs", "dash", "dashes", "drop", "drops", "jar", "jars", "bottle", "bottles",
    ]
    /// Quantities written as words, kept as text.
    static let wordQuantities = ["a piacere", "q.b.", "qb", "to taste", "as needed", "a pinch of"]

    /// Reads a line such as `400g Spaghetti`, `1 1/2 cups flour`, `A piacere Pepe nero`,
    /// `Salt (to taste)`, `Chilli flakes (a pinch)`, `Salt`.
    public init(line: String) {
        self.init(reading: line)
        self.line = line.trimmingCharacters(in: " \t")
    }

    private init(reading line: String) {
        let text = line.trimmingCharacters(in: " \t")
        let lower = text.lowercased()
        for phrase in Ingredient.wordQuantities where lower.hasPrefix(phrase + " ") {
            self.init(name: String(text.dropFirst(phrase.count)), quantity: String(text.prefix(phrase.count)))
            return
        }
        var rest = Substring(text)
        var quantityLength = 0
        while let (_, length) = Quantity.number(at: rest) {
            quantityLength += length
            rest = rest.dropFirst(length)
            let spaces = rest.prefix { $0 == " " }.count
            // A number glued to its unit ("400g") or followed by a unit word ("2 cups").
            let word = rest.dropFirst(spaces).prefix { $0.isLetter || $0 == "." }
            if spaces == 0 && !word.isEmpty {
                quantityLength += word.count
                rest = rest.dropFirst(word.count)
                break
            }
            if Ingredient.units.contains(word.lowercased().trimmingCharacters(in: ".")) {
                quantityLength += spaces + word.count
                rest = rest.dropFirst(spaces + word.count)
                break
            }
            quantityLength += spaces
            rest = rest.dropFirst(spaces)
        }
        guard quantityLength > 0, !rest.trimmingCharacters(in: " \t").isEmpty else {
            if let (name, quantity) = Ingredient.trailingQuantity(text) {
                self.init(name: name, quantity: quantity)
                quantityAfterName = true
            } else {
                self.init(name: text)
            }
            return
        }
        self.init(name: String(rest), quantity: String(text.prefix(quantityLength)))
    }

    /// `Sugar (1/2 Grams)`, `Salt (pinch)`: a quantity in parentheses after the name,
    /// when it starts with an amount or is a unit or a quantity in words (so that
    /// `Tomatoes (ripe)` stays a name).
    static func trailingQuantity(_ text: String) -> (String, String)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let name = text[..<open].trimmingCharacters(in: " \t")
        let inner = String(text[text.index(after: open)..<text.index(before: text.endIndex)]).trimmingCharacters(in: " \t")
        let lower = inner.lowercased()
        // `a pinch`, `a handful`, `a dash`: a unit after "a" or "an".
        let article = ["a ", "an "].first { lower.hasPrefix($0) }.map { String(lower.dropFirst($0.count)) }
        guard !name.isEmpty, !inner.isEmpty,
              Quantity(inner).amount != nil || units.contains(lower) || wordQuantities.contains(lower) || article.map(units.contains) == true
        else { return nil }
        return (name, inner)
    }

    /// The ingredient as a list line that reads back as this very ingredient:
    /// `400g Spaghetti`, or, when the quantity would run into the name (a unit Folio does
    /// not know, a quantity without an amount), `Sugar (1/2 Grams)`; nil when neither
    /// form reads back (then it belongs in front matter, as `name:` and `quantity:`).
    /// One read from a line gives that line.
    public var exactLine: String? {
        if let line { return line }
        guard let quantity else { return Ingredient(line: name) == self ? name : nil }
        let forms = [quantity.text + " " + name, name + " (" + quantity.text + ")"]
        return (quantityAfterName ? forms.reversed() : forms).first { Ingredient(line: $0) == self }
    }

    /// The line it was read from, else `400g Spaghetti` (or `Sugar (1/2 Grams)`: see
    /// ``exactLine``); one read as `name (quantity)` keeps that form when changed.
    public var description: String {
        if let exactLine { return exactLine }
        guard let quantity else { return name }
        return quantityAfterName ? name + " (" + quantity.text + ")" : quantity.text + " " + name
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
