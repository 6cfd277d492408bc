extension String {
    /// The string without leading and trailing characters from `set`.
    package func trimmingCharacters(in set: String) -> String {
        // Most text has nothing to trim: check the first and last bytes before walking Characters.
        if let first = utf8.first, let last = utf8.last, first > 32, last > 32, first < 0x80, last < 0x80,
           !set.utf8.contains(first), !set.utf8.contains(last)
        {
            return self
        }
        // By scalars: "\r\n" is one Character, so a set holding "\r\n" would not hold
        // a lone "\n" as a Character, and a file's final line feed would stay.
        let scalars = Set(set.unicodeScalars)
        let drop: (Character) -> Bool = { $0.unicodeScalars.allSatisfy(scalars.contains) }
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
