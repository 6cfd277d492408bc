import FolioFormat
import FolioModel

extension StoreState {
    /// The records matching `query`, in its sort order (path order when it has none),
    /// at most its limit. Conditions are answered from the indexes — a quoted phrase
    /// through its pairs of adjacent words; only a phrase of three words or more is then
    /// checked against the text of the records its pairs found, in result order,
    /// stopping at the limit.
    public func records(matching query: Query) -> [Record] { records(matching: query, among: nil) }

    /// The records among `paths` (nil: all) matching `query`, in its order, at most its
    /// limit: what a live query asks of the records a change touched.
    func records(matching query: Query, among paths: [String]?) -> [Record] {
        guard !(query.excluded.isEmpty && query.alternatives.isEmpty) else { return conjunction(query, among: paths) }
        // Each group: what meets its terms, less what meets any term it leaves out; the
        // groups joined, then sorted and cut to the limit as one.
        func matching(_ group: Query) -> Set<String> {
            var terms = Query()
            terms.terms = group.terms
            var found = Set(conjunction(terms, among: paths).map(\.path))
            for term in group.excluded where !found.isEmpty {
                var single = Query()
                single.terms = [term]
                found.subtract(conjunction(single, among: Array(found)).map(\.path))
            }
            return found
        }
        var all = matching(query)
        for alternative in query.alternatives { all.formUnion(matching(alternative)) }
        let ids = all.compactMap(index.id(of:)).sorted()
        return ordered(ids, by: query.sortKey, descending: query.descending, limit: query.limit).compactMap(record(id:))
    }

    /// The records among `paths` meeting every one of `query`'s terms (its exclusions and
    /// alternatives aside), in its order, at most its limit.
    private func conjunction(_ query: Query, among paths: [String]?) -> [Record] {
        var candidates: [Int32]? = paths.map { $0.compactMap(index.id(of:)).sorted() }
        func narrow(_ ids: [Int32]) {
            candidates = candidates.map { StoreState.intersect($0, ids) } ?? ids
        }
        func narrow(range ids: ArraySlice<Int32>) {
            var bits = Bitset(count: Int(index.nextID))
            for id in ids { bits.insert(id) }
            candidates = candidates.map { $0.filter(bits.contains) } ?? bits.sortedMembers
        }
        var phrases: [[UInt8]] = []
        // Equality first (short posting lists), then ranges, then words.
        for term in query.terms {
            guard case .field(let key, let value) = term else { continue }
            switch key {
            case "kind": narrow(index.byKind[Kind(rawValue: value)] ?? [])
            case "tag": narrow(index.byTag[value] ?? [])
            default: narrow(index.byField[key]?[value] ?? [])
            }
        }
        for term in query.terms {
            guard case .compare(let key, let comparison, let bound) = term else { continue }
            switch bound {
            case .number(let n): narrow(range: index.numbers[key]?.ids(comparison, n) ?? [])
            case .date(let d): narrow(range: index.dates[key]?.ids(comparison, Double(d.daysSinceEpoch)) ?? [])
            }
        }
        for term in query.terms {
            guard case .text(let words, let phrase) = term else { continue }
            guard index.indexesText else {
                // No text index: each word, or the phrase, is looked for in the folded text.
                phrases += phrase ? [Array((" " + words.joined(separator: " ") + " ").utf8)] : words.map { Array((" " + $0 + " ").utf8) }
                continue
            }
            for word in words { narrow(index.byWord[TextFolding.wordHash(word)] ?? []) }
            if phrase && words.count > 1 {
                // Pairs are indexed by a 64-bit hash; a phrase of two words is taken as found.
                for (first, second) in zip(words, words.dropFirst()) {
                    narrow(index.byPair[TextFolding.pairHash(first, second)])
                }
                if words.count > 2 { phrases.append(Array((" " + words.joined(separator: " ") + " ").utf8)) }
            }
        }
        let ids = (candidates ?? index.liveIDs).filter(index.isLive)
        let ordered = ordered(ids, by: query.sortKey, descending: query.descending, limit: phrases.isEmpty ? query.limit : nil)
        guard !phrases.isEmpty else { return ordered.compactMap(record(id:)) }
        var out: [Record] = []
        let limit = query.limit ?? Int.max
        for id in ordered where out.count < limit {
            guard let record = record(id: id), record.isValid, let text = foldedText(record) else { continue }
            if phrases.allSatisfy({ text.contains($0) }) { out.append(record) }
        }
        return out
    }

    /// A record's title, front-matter text and body (as the index reads them) as folded
    /// words between single spaces, as bytes.
    func foldedText(_ record: Record) -> [UInt8]? {
        guard let bytes = contents(of: record) else { return nil }
        var text: [UInt8] = [32]
        text.reserveCapacity(bytes.count + 64)
        var title = record.title
        title.withUTF8 { TextFolding.appendFoldedWords(utf8: $0, to: &text) }
        // Parsed again only for a phrase of three words or more, on the records its pairs
        // found. A record indexed as valid parses again; were it ever not to, its phrase is
        // looked for in its title and body alone, as before front-matter text was indexed.
        if let document = try? Document(bytes: bytes, path: record.path) {
            var values: [UInt8] = []
            StoreIndex.Entry.appendFrontMatterText(of: document, to: &values)
            values.withUnsafeBufferPointer { TextFolding.appendFoldedWords(utf8: $0, to: &text) }
        }
        bytes.withUnsafeBufferPointer {
            TextFolding.appendFoldedWords(utf8: UnsafeBufferPointer(rebasing: $0[record.bodyStart...]), to: &text)
        }
        return text
    }

    func record(id: Int32) -> Record? { recordsByID[Int(id)] }

    /// Every key a query can ask of the records held (`kind`, `tag`, `done`, and each
    /// front-matter key some record has), sorted: a query naming another matches nothing.
    public var queryableKeys: [String] {
        Set(["kind", "tag", "tags", "title", "path", "done"]).union(index.byField.keys).union(index.numbers.keys).union(index.dates.keys).sorted()
    }

    /// `ids` sorted by a key's sorted index (records without the key last), or by path.
    func ordered(_ ids: [Int32], by key: String?, descending: Bool, limit: Int?) -> [Int32] {
        let limit = limit ?? ids.count
        guard let key, key != "path" else {
            let sorted = ids.sorted { index.rank[Int($0)] < index.rank[Int($1)] }
            return Array((descending ? sorted.reversed() : sorted).prefix(limit))
        }
        if key == "title" {
            let sorted = ids.sorted { (record(id: $0)?.title ?? "") < (record(id: $1)?.title ?? "") }
            return Array((descending ? sorted.reversed() : sorted).prefix(limit))
        }
        guard let pairs = index.dates[key] ?? index.numbers[key] else {
            return ordered(ids, by: nil, descending: false, limit: limit)
        }
        var wanted = Bitset(count: Int(index.nextID))
        for id in ids { wanted.insert(id) }
        var out: [Int32] = []
        out.reserveCapacity(min(limit, ids.count))
        for position in stride(from: descending ? pairs.count - 1 : 0, through: descending ? 0 : pairs.count - 1, by: descending ? -1 : 1) {
            if out.count >= limit { break }
            let id = pairs.ids[position]
            if wanted.remove(id) { out.append(id) }
        }
        if out.count < limit {
            out += ordered(ids.filter(wanted.contains), by: nil, descending: false, limit: limit - out.count)
        }
        return out
    }

    /// The ids in both ascending lists.
    static func intersect(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                out.append(a[i])
                i += 1
                j += 1
            } else if a[i] < b[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return out
    }
}

/// A set of record ids as bits, for intersecting with ranges without sorting them.
struct Bitset {
    private var words: [UInt64]

    init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ id: Int32) { words[Int(id) >> 6] |= 1 << UInt64(id & 63) }

    func contains(_ id: Int32) -> Bool { words[Int(id) >> 6] & (1 << UInt64(id & 63)) != 0 }

    /// Removes `id`; returns whether it was there.
    mutating func remove(_ id: Int32) -> Bool {
        let had = contains(id)
        words[Int(id) >> 6] &= ~(1 << UInt64(id & 63))
        return had
    }

    /// The members in ascending order.
    var sortedMembers: [Int32] {
        var out: [Int32] = []
        for (index, var word) in words.enumerated() {
            while word != 0 {
                let bit = word.trailingZeroBitCount
                out.append(Int32(index * 64 + bit))
                word &= word - 1
            }
        }
        return out
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in this array.
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        let first = needle[0]
        var i = 0
        while i + needle.count <= count {
            if self[i] == first && self[i..<i + needle.count].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
