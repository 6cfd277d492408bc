/// A line of prose cut into sentences, for a merge that takes two edits of one
/// paragraph (a Markdown paragraph is often one long line) when they touch different
/// sentences. Each sentence keeps the spacing that followed it, so that the line can be
/// put back together as written.
struct Sentences: Equatable {
    /// One sentence: its text, and the spaces after it (none for the last, or after a
    /// CJK full stop written without one).
    struct Sentence: Equatable {
        var text: String
        var spacing: String
    }

    /// What comes before the first sentence: indentation, and a list or quote marker
    /// (`- `, `1. `, `> `).
    var prefix: String
    /// The sentences, in order.
    var sentences: [Sentence]

    /// Abbreviations after which a full stop does not end a sentence (lowercased,
    /// without their last full stop), in the languages the collections are written in.
    static let abbreviations: Set<String> = [
        "e.g", "i.e", "mr", "mrs", "ms", "dr", "st", "vs", "cf", "ca", "approx", "no", "nr", "p", "pp", "fig",
        "ecc", "etc", "sig", "sigg", "dott", "prof", "ing", "avv", "pag", "cap", "es", "n", "tel", "min", "max",
    ]

    /// Marks that end a sentence.
    static let stops: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "‼", "⁉"]
    /// Stops after which no space is written (CJK).
    static let fullWidthStops: Set<Character> = ["。", "！", "？"]
    /// What may close a sentence after its stop: quotes, brackets, emphasis.
    static let closers: Set<Character> = ["\"", "'", "”", "’", "»", "」", "』", ")", "]", "*", "_"]

    /// Cuts `line` (without its line break) into its prefix and sentences. A stop ends
    /// a sentence when spaces (or the end, or, for a CJK full stop, anything) follow it
    /// and its closers, unless it ends an abbreviation or an initial (`J.`), or a
    /// lowercase letter follows (`e.g. this`, `wait... then`): decimals (`3.5`) and
    /// names (`example.com`) have no space after their full stop.
    init(_ line: String) {
        let characters = Array(line)
        var start = 0
        while start < characters.count, characters[start] == " " || characters[start] == "\t" { start += 1 }
        start += Self.markerLength(characters, from: start)
        prefix = String(characters[0..<start])
        sentences = []
        var current = start
        var index = start
        while index < characters.count {
            guard Self.stops.contains(characters[index]) else {
                index += 1
                continue
            }
            let stop = characters[index]
            var end = index + 1
            while end < characters.count, Self.stops.contains(characters[end]) || Self.closers.contains(characters[end]) { end += 1 }
            var after = end
            while after < characters.count, characters[after] == " " || characters[after] == "\t" { after += 1 }
            let fullWidth = Self.fullWidthStops.contains(stop)
            let ends: Bool
            if after == characters.count {
                ends = true
            } else if fullWidth {
                ends = true
            } else if after == end || characters[after].isLowercase {
                ends = false
            } else if stop == ".", end == index + 1 {
                ends = !Self.isAbbreviation(characters, before: index, from: current)
            } else {
                ends = true
            }
            if ends {
                sentences.append(Sentence(text: String(characters[current..<end]), spacing: String(characters[end..<after])))
                current = after
            }
            index = max(after, index + 1)
        }
        if current < characters.count {
            // The rest after the last stop: its trailing spaces are the line's.
            var textEnd = characters.count
            while textEnd > current, characters[textEnd - 1] == " " || characters[textEnd - 1] == "\t" { textEnd -= 1 }
            sentences.append(Sentence(text: String(characters[current..<textEnd]), spacing: String(characters[textEnd...])))
        }
    }

    /// The line as written: the prefix, then each sentence with its spacing.
    var text: String { prefix + sentences.map { $0.text + $0.spacing }.joined() }

    /// The length of a list or quote marker at `start` (`- `, `* `, `+ `, `> `, `12. `, `3) `), or 0.
    static func markerLength(_ characters: [Character], from start: Int) -> Int {
        guard start < characters.count else { return 0 }
        if ["-", "*", "+", ">"].contains(characters[start]), start + 1 < characters.count, characters[start + 1] == " " { return 2 }
        var digits = start
        while digits < characters.count, characters[digits].isASCII, characters[digits].isNumber { digits += 1 }
        if digits > start, digits + 1 < characters.count, characters[digits] == "." || characters[digits] == ")", characters[digits + 1] == " " {
            return digits + 2 - start
        }
        return 0
    }

    /// Whether the full stop at `index` ends an abbreviation or an initial: the word
    /// before it (back to a space, or `from`) is one of ``abbreviations`` or one letter.
    static func isAbbreviation(_ characters: [Character], before index: Int, from start: Int) -> Bool {
        var wordStart = index
        while wordStart > start, !(characters[wordStart - 1] == " " || characters[wordStart - 1] == "(" || characters[wordStart - 1] == "\"") { wordStart -= 1 }
        let word = String(characters[wordStart..<index]).lowercased()
        if word.count == 1, word.first?.isLetter == true { return true }
        return abbreviations.contains(word)
    }
}
