/// An exact amount: a whole number or a fraction, always in lowest terms with a
/// positive denominator, so that scaling `3/4 cup` by 2 gives `1 1/2 cup`, not `6/4`.
public struct Fraction: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator, in lowest terms (its sign is the fraction's).
    public let numerator: Int
    /// The denominator, in lowest terms: 1 or more.
    public let denominator: Int

    /// `numerator / denominator` in lowest terms; nil for a zero denominator or a value
    /// out of `Int`'s range.
    public init?(_ numerator: Int, _ denominator: Int = 1) {
        guard denominator != 0, numerator != .min, denominator != .min else { return nil }
        let divisor = Self.gcd(abs(numerator), abs(denominator))
        let sign = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / max(divisor, 1)
        self.denominator = abs(denominator) / max(divisor, 1)
    }

    /// The product, or nil when it does not fit in `Int`.
    public func multiplied(by other: Fraction) -> Fraction? {
        // Crossed first, so that 3/4 × 4/3 never builds 12/12.
        let a = Self.gcd(abs(numerator), other.denominator), b = Self.gcd(abs(other.numerator), denominator)
        let (top, topOverflow) = (numerator / max(a, 1)).multipliedReportingOverflow(by: other.numerator / max(b, 1))
        let (bottom, bottomOverflow) = (denominator / max(b, 1)).multipliedReportingOverflow(by: other.denominator / max(a, 1))
        guard !topOverflow && !bottomOverflow else { return nil }
        return Fraction(top, bottom)
    }

    /// The value as a `Double`.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// As a cook writes it: `3`, `1/2`, `1 1/2`, `-1 1/2`.
    public var description: String {
        let whole = numerator / denominator, rest = abs(numerator % denominator)
        if rest == 0 { return String(whole) }
        if whole == 0 { return (numerator < 0 ? "-" : "") + "\(rest)/\(denominator)" }
        return "\(whole) \(rest)/\(denominator)"
    }

    /// Fractions compare by value.
    public static func < (left: Fraction, right: Fraction) -> Bool {
        let (a, overflowA) = left.numerator.multipliedReportingOverflow(by: right.denominator)
        let (b, overflowB) = right.numerator.multipliedReportingOverflow(by: left.denominator)
        guard !overflowA && !overflowB else { return left.value < right.value }
        return a < b
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
