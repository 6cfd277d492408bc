import FolioFormat

extension Quantity {
    /// The amount as an exact fraction, when it was written as whole numbers and
    /// fractions (`2`, `1/2`, `1 1/2`, `1½`, `½`); nil for a decimal (`1.5`), for text
    /// without an amount, or for amounts too large for `Int`.
    public var exactAmount: Fraction? {
        var rest = Substring(text), total = Fraction(0)!
        var found = false
        while let (part, length) = Quantity.number(at: rest) {
            let digits = rest.prefix(length)
            guard !digits.contains("."), !digits.contains(","), part.numerator == part.numerator.rounded(), abs(part.numerator) < 1e15,
                  let fraction = Fraction(Int(part.numerator), part.denominator ?? 1),
                  let sum = total.adding(fraction)
            else { return nil }
            total = sum
            found = true
            rest = rest.dropFirst(length).drop { $0 == " " }
        }
        return found ? total : nil
    }

    /// The quantity times `factor`, the unit and everything after the amount kept as
    /// written (`400g` × 3/2 is `600g`, `3/4 cup` × 2 is `1 1/2 cup`). An amount written
    /// as fractions stays exact, in lowest terms and as a mixed number; a decimal one
    /// gives a decimal (to 3 places, trailing zeros dropped). A quantity without an
    /// amount (`to taste`) is kept as it is.
    public func scaled(by factor: Fraction) -> Quantity {
        guard amount != nil else { return self }
        // Where the amount ends in the text as written: the rest is the unit, with its spacing.
        var rest = Substring(text)
        while let (_, length) = Quantity.number(at: rest) { rest = rest.dropFirst(length).drop { $0 == " " } }
        let amountText = text[..<rest.startIndex]
        let separator = amountText.hasSuffix(" ") && !rest.isEmpty ? " " : ""
        let scaledText: String
        if let exact = exactAmount, let product = exact.multiplied(by: factor) {
            scaledText = product.description
        } else {
            scaledText = Self.decimalText((amount ?? 0) * factor.value)
        }
        return Quantity(scaledText + separator + rest)
    }

    /// `1.5`, `0.333`, `2`: at most three decimals, no trailing zeros.
    static func decimalText(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return YAMLEmitter.floatText(rounded)
    }
}

extension Fraction {
    /// The sum, or nil when it does not fit in `Int`.
    public func adding(_ other: Fraction) -> Fraction? {
        let (a, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (b, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (top, o3) = a.addingReportingOverflow(b)
        let (bottom, o4) = denominator.multipliedReportingOverflow(by: other.denominator)
        guard !(o1 || o2 || o3 || o4) else { return nil }
        return Fraction(top, bottom)
    }
}
