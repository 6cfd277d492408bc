extension String {
    /// The first byte past leading spaces and tabs (what ``trimmingCharacters(in:)`` with
    /// `" \t"` would leave first), nil when there is none: typed reads turn text away by
    /// it before trimming and lowercasing it — every string of a front matter is asked
    /// whether it is a number or a duration, and most are neither.
    package var firstByteAfterBlanks: UInt8? {
        utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
    }

    /// Whether ``firstByteAfterBlanks`` can start a number: a digit, a sign or a point.
    package var mayStartNumber: Bool {
        guard let first = firstByteAfterBlanks else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
    }
}
