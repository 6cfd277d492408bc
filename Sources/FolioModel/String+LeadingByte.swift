extension String {
    /// The first byte past leading spaces and tabs (what ``trimmingCharacters(in:)`` with
    /// `" \t"` would leave first), nil when there is none: typed reads turn text away by
    /// it before trimming and lowercasing it — every string of a front matter is asked
    /// whether it is a number or a duration, and most are neither.
    package var firstByteAfterBlanks: UInt8? {
        utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
    }

    /// Whether ``firstByteAfterBlanks`` can start a number.
    package var mayStartNumber: Bool { firstByteAfterBlanks?.mayStartNumber ?? false }
}

extension UInt8 {
    /// Whether this byte can start a number: a digit, a sign or a point.
    package var mayStartNumber: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "+") || self == UInt8(ascii: "-") || self == UInt8(ascii: ".")
    }
}
