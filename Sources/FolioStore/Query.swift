import FolioFormat
import FolioModel

/// A query such as `kind:recipe tag:pasta time<30m "guanciale" done:false priority>=2
/// date>=2026-11-01 sort:-date limit:10`: words are full-text, `key:value` matches any
/// front-matter key, comparisons work on numbers, durations and dates (`today`,
/// `today-7d`, `today+2w` among them). `NOT term` or `-term` leaves out what meets the
/// term; `OR` between groups of terms matches what meets either (`tag:pasta OR
/// tag:bread`; `sort:` and `limit:` apply to the whole).
public struct Query: Sendable, Hashable {
    /// One condition; a record must meet them all.
    public enum Term: Sendable, Hashable {
        /// Folded words that must all appear in the title or body, in this order when quoted.
        case text(words: [String], phrase: Bool)
        /// A key whose value (or one of whose list items) equals this folded text.
        case field(key: String, value: String)
        /// A key whose number, duration or date compares with a bound.
        case compare(key: String, Comparison, Bound)
    }

    /// The right-hand side of a comparison.
    public enum Bound: Sendable, Hashable {
        /// A number, or a duration in seconds.
        case number(Double)
        /// A day.
        case date(CalendarDate)
    }

    /// The conditions.
    public var terms: [Term] = []
    /// Conditions a record must not meet (`NOT tag:pasta`, `-tag:pasta`).
    public var excluded: [Term] = []
    /// Other groups of conditions, each with its own ``terms`` and ``excluded``: a
    /// record meeting any of them matches as well (`… OR …`). Their sort and limit are
    /// not used.
    public var alternatives: [Query] = []
    /// The key to sort by, and whether descending (`sort:-date`); path order otherwise.
    public var sortKey: String?
    /// Whether the sort is descending.
    public var descending = false
    /// The most results to return.
    public var limit: Int?

    /// No conditions: every record (a group the parser fills).
    init() {}

    /// Parses a query, `today` being today's date where the query names it.
    /// - Throws: ``QueryError`` pointing at the character where the query went wrong.
    public init(parsing text: String) throws(QueryError) {
        try self.init(parsing: text, today: CalendarDate.today())
    }

    /// Parses a query, `today` (`today-7d`, `today+2w`) standing for `today`.
    /// - Throws: ``QueryError`` pointing at the character where the query went wrong.
    public init(parsing text: String, today: CalendarDate) throws(QueryError) {
        var group = Query()
        var negateNext: Int?
        var groups: [Query] = []
        for token in try Query.tokens(of: text) {
            if token.quotedFrom == nil && token.text == "OR" {
                guard negateNext == nil else { throw QueryError(kind: .missingValue, query: text, position: token.start, message: "NOT needs a term after it, e.g. NOT tag:pasta") }
                guard !(group.terms.isEmpty && group.excluded.isEmpty) else {
                    throw QueryError(kind: .missingValue, query: text, position: token.start, message: "OR needs terms on both sides, e.g. tag:pasta OR tag:bread")
                }
                groups.append(group)
                (group.terms, group.excluded) = ([], [])
                continue
            }
            if token.quotedFrom == nil && token.text == "NOT" {
                negateNext = token.start
                continue
            }
            var word = token
            var negated = negateNext != nil
            negateNext = nil
            if word.quotedFrom != word.start, word.text.count > 1, word.text.hasPrefix("-"), !word.text.dropFirst().hasPrefix("-") {
                // `-tag:pasta`, `-soup`: a term left out (`-5` alone is a word, not a negated number).
                word.text.removeFirst()
                word.start += 1
                if let quote = word.quotedFrom, quote < word.start { word.quotedFrom = word.start }
                negated = true
            }
            let before = group.terms.count
            try group.add(word, of: text, today: today)
            if negated {
                guard group.terms.count > before else {
                    throw QueryError(kind: .missingValue, query: text, position: word.start, message: "only a term can be left out (NOT tag:pasta, -soup), not sort: or limit:")
                }
                group.excluded.append(group.terms.removeLast())
            }
        }
        if let position = negateNext {
            throw QueryError(kind: .missingValue, query: text, position: position, message: "NOT needs a term after it, e.g. NOT tag:pasta")
        }
        if !groups.isEmpty && group.terms.isEmpty && group.excluded.isEmpty {
            throw QueryError(kind: .missingValue, query: text, position: text.count, message: "OR needs terms on both sides, e.g. tag:pasta OR tag:bread")
        }
        // sort: and limit: apply to the whole, wherever they were written.
        let all = groups + [group]
        self = all[0]
        for other in all.dropFirst() {
            sortKey = sortKey ?? other.sortKey
            if other.sortKey != nil { descending = other.descending }
            limit = other.limit ?? limit
            var alternative = Query()
            (alternative.terms, alternative.excluded) = (other.terms, other.excluded)
            alternatives.append(alternative)
        }
    }

    /// Every key the query's conditions name (`kind`, `tag`, `time`, …), its
    /// alternatives' too: a caller can say which no record has.
    public var keys: [String] {
        var seen: [String] = []
        for term in terms + excluded + alternatives.flatMap({ $0.terms + $0.excluded }) {
            switch term {
            case .field(let key, _), .compare(let key, _, _): if !seen.contains(key) { seen.append(key) }
            case .text: break
            }
        }
        return seen
    }

    /// A word of a query: its text (quotes taken out), where it starts, and where its
    /// first quote was, if it has one.
    struct Token {
        var text: String
        var start: Int
        var quotedFrom: Int?
    }

    /// The query's words: split at blanks, a quoted part kept whole.
    static func tokens(of text: String) throws(QueryError) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var i = 0
        while i < characters.count {
            if characters[i] == " " || characters[i] == "\t" {
                i += 1
                continue
            }
            var token = Token(text: "", start: i)
            while i < characters.count && characters[i] != " " && characters[i] != "\t" {
                if characters[i] == "\"" {
                    let open = i
                    i += 1
                    while i < characters.count && characters[i] != "\"" {
                        token.text.append(characters[i])
                        i += 1
                    }
                    guard i < characters.count else {
                        throw QueryError(kind: .unterminatedQuote, query: text, position: open, message: "unterminated quote: add the closing \"")
                    }
                    token.quotedFrom = token.quotedFrom ?? open
                    i += 1
                } else {
                    token.text.append(characters[i])
                    i += 1
                }
            }
            tokens.append(token)
        }
        return tokens
    }

    /// One word of `text` added to the query: a phrase, words to find, a comparison
    /// (`time<30m`), `sort:`, `limit:`, or a field's value (`kind:recipe`).
    mutating func add(_ word: Token, of text: String, today: CalendarDate) throws(QueryError) {
        func fail(_ kind: QueryError.Kind, _ message: String, at position: Int) -> QueryError {
            QueryError(kind: kind, query: text, position: position, message: message)
        }
        let (token, start) = (word.text, word.start)
        if word.quotedFrom == start {
            let words = TextFolding.words(token)
            guard !words.isEmpty else { throw fail(.emptyPhrase, "an empty phrase matches nothing: put words between the quotes", at: start) }
            terms.append(.text(words: words, phrase: true))
            return
        }
        guard let operatorIndex = token.firstIndex(where: { $0 == ":" || $0 == "<" || $0 == ">" || $0 == "=" }) else {
            terms.append(.text(words: TextFolding.words(token), phrase: false))
            return
        }
        let key = String(token[..<operatorIndex])
        var rest = token[operatorIndex...]
        let operatorPosition = start + token.distance(from: token.startIndex, to: operatorIndex)
        guard !key.isEmpty else { throw fail(.missingKey, "missing key before '\(rest.first!)': write key:value, e.g. kind:recipe", at: operatorPosition) }
        var comparison: Comparison?
        if rest.hasPrefix(":") {
            rest = rest.dropFirst()
            if rest.first == "<" || rest.first == ">" || rest.first == "=" { comparison = .equal }
        }
        if comparison != nil || token[operatorIndex] != ":" {
            let symbol = rest.prefix { $0 == "<" || $0 == ">" || $0 == "=" }
            guard let parsed = Comparison(rawValue: String(symbol)) else {
                throw fail(.unknownComparison, "unknown comparison '\(symbol)': use <, <=, > or >=", at: operatorPosition)
            }
            comparison = parsed
            rest = rest.dropFirst(symbol.count)
        }
        let value = String(rest)
        let valuePosition = start + token.count - value.count
        guard !value.isEmpty else { throw fail(.missingValue, "missing value after '\(key)\(token[operatorIndex...])'", at: start + token.count) }
        if let comparison {
            guard let bound = Query.bound(value, today: today) else {
                throw fail(.notAValue, "'\(value)' is not a number, a duration (30m, 1h30m) or a date (2026-11-01, today, today-7d, today+2w)", at: valuePosition)
            }
            terms.append(.compare(key: key, comparison, bound))
            return
        }
        switch key {
        case "sort":
            descending = value.hasPrefix("-")
            sortKey = descending ? String(value.dropFirst()) : value
            if sortKey!.isEmpty { throw fail(.missingKey, "missing key after 'sort:-'", at: start + token.count) }
        case "limit":
            guard let n = Int(value), n >= 0 else { throw fail(.notAValue, "limit must be a whole number, e.g. limit:10", at: valuePosition) }
            limit = n
        case "tags":
            terms.append(.field(key: "tag", value: TextFolding.folded(value)))
        default:
            // A yes or no is asked as the Bool typed reads take it for (the index holds that too).
            let flag = YAMLValue.string(value).boolValue
            terms.append(.field(key: key, value: flag.map { $0 ? "true" : "false" } ?? TextFolding.folded(value)))
        }
    }

    /// A comparison's bound: a date (`today`, `today-7d`, `today+2w` counted from
    /// `today`), a duration with a unit, or a number.
    static func bound(_ text: String, today: CalendarDate) -> Bound? {
        if let date = YAMLValue.string(text).calendarDate { return .date(date) }
        if text == "today" { return .date(today) }
        if text.hasPrefix("today+") || text.hasPrefix("today-") {
            let sign = text.dropFirst(5).first == "-" ? -1 : 1
            let amount = text.dropFirst(6)
            guard let unit = amount.last, let count = Int(amount.dropLast()), count >= 0 else { return nil }
            let days: Int
            switch unit {
            case "d": days = count
            case "w": days = count * 7
            default: return nil
            }
            return .date(CalendarDate(daysSinceEpoch: today.daysSinceEpoch + sign * days))
        }
        if case .int(let n) = ScalarResolver.resolvePlain(text) { return .number(Double(n)) }
        if case .float(let n) = ScalarResolver.resolvePlain(text), !n.isNaN { return .number(n) }
        if let span = TimeSpan(text) { return .number(Double(span.seconds)) }
        return nil
    }
}

/// A query that cannot be read: the message, and a caret under the character where it went wrong.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake it is, for a caller to switch on.
    public enum Kind: Sendable, Hashable {
        /// A `"` phrase without its closing quote.
        case unterminatedQuote
        /// `""`: a phrase with no words.
        case emptyPhrase
        /// A comparison or sort without its key (`:x`, `sort:-`).
        case missingKey
        /// An operator that is not `:`, `<`, `<=`, `>` or `>=`.
        case unknownComparison
        /// A comparison without its value (`time<`).
        case missingValue
        /// A value that is not what its comparison needs (a number, duration or date; a whole limit).
        case notAValue
    }

    /// What kind of mistake it is.
    public var kind: Kind
    /// The query as given.
    public var query: String
    /// The character position (from 0) where it went wrong.
    public var position: Int
    /// What was wrong and what to do.
    public var message: String

    /// `error: MESSAGE`, then the query and a caret.
    public var description: String {
        "error: \(message) (at character \(position + 1))\n  \(query)\n  \(String(repeating: " ", count: position))^"
    }
}
