/// "Did you mean": the word among a set closest to one mistyped.
enum Suggestion {
    /// The candidate fewest edits (insertions, deletions, substitutions, swaps of two
    /// neighbours) from `word`, if at most two edits away (one for a word of three
    /// letters or fewer), or the one candidate `word` begins; nil when none is close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = word.count <= 3 ? 1 : 2
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }
        if let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) { return best.0 }
        let prefixed = candidates.filter { $0.hasPrefix(word) && !word.isEmpty }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
