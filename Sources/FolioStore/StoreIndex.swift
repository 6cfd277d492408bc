import FolioFormat
import FolioModel

/// The store's indexes, over integer record ids: kind, tag, any front-matter key's
/// value, full text (folded words of title and body), and sorted numbers and dates
/// for comparisons and sorting. A changed file gets a new id; the old one is dead
/// and skipped until ``compact()`` renumbers the live ids, so that a store that
/// follows a folder for weeks holds what its files need, not every version it saw.
struct StoreIndex: Sendable {
    private(set) var paths: [String?] = []
    private(set) var idByPath: [String: Int32] = [:]
    /// Id → position of its path among the live paths in order (meaningless for dead ids).
    private(set) var rank: [Int32] = []
    /// The live ids in path order: ``rank`` inverted.
    private(set) var byRank: [Int32] = []
    var byKind: [Kind: [Int32]] = [:]
    var byTag: [String: [Int32]] = [:]
    var byField: [String: [String: [Int32]]] = [:]
    /// Ids by word, the word as its ``TextFolding/wordHash(_:)``.
    var byWord: [UInt64: [Int32]] = [:]
    /// Records by the hash of each pair of adjacent words, for phrases.
    var byPair = PairPostings()
    var numbers: [String: SortedPairs] = [:]
    var dates: [String: SortedPairs] = [:]
    private(set) var deadCount = 0
    /// Whether the body's words and word pairs are indexed: not for a store nothing
    /// searches by text (`folio watch DIR`), which a text query then reads instead.
    var indexesText = true
    /// How many times ``compact()`` ran: the store gives freed memory back after one.
    private(set) var compactions = 0

    var nextID: Int32 { Int32(paths.count) }

    func isLive(_ id: Int32) -> Bool { paths[Int(id)] != nil }

    func id(of path: String) -> Int32? { idByPath[path] }

    func path(of id: Int32) -> String? { paths[Int(id)] }

    /// Every live id in id order.
    var liveIDs: [Int32] { (0..<nextID).filter(isLive) }

    /// Adds `id`, the newest, to a word's posting list once: two words of a record can
    /// share a hash.
    @inline(__always)
    static func post(_ id: Int32, to ids: inout [Int32]) {
        if ids.last != id { ids.append(id) }
    }

    /// What a record adds to the indexes: computed on any thread, inserted on one.
    struct Entry: Sendable {
        /// The distinct words, each as its ``TextFolding/wordHash(_:)``.
        var words: [UInt64] = []
        /// Hashes of adjacent word pairs, with repeats (they are dropped when indexed).
        var pairs: [UInt64] = []
        /// Each field's distinct folded values, the fields in the document's order: a
        /// list, not a table of sets — a record has a few fields of a few values each, and
        /// a table and a set per record, each value hashed into it, were a load's cost.
        var fields: [(key: String, values: [String])] = []
        var numbers: [(key: String, value: Double)] = []
        var dates: [(key: String, value: Double)] = []

        init() {}

        /// The entry of a record, from its parsed document (nil for an invalid file).
        /// The body's bytes from `start`, at most ``StoreIndex/largestIndexedBody`` of them,
        /// cut at a line's end (so never inside a character).
        static func indexedBody(of bytes: [UInt8], from start: Int) -> ArraySlice<UInt8> {
            guard bytes.count - start > StoreIndex.largestIndexedBody else { return bytes[start...] }
            let limit = start + StoreIndex.largestIndexedBody
            let end = bytes[start..<limit].lastIndex(of: 10).map { $0 + 1 } ?? start
            return bytes[start..<end]
        }

        init(_ record: Record, document: Document?, indexingText: Bool = true) {
            guard let document else { return }
            if indexingText { indexText(of: record, document: document) }
            for entry in document.fields.entries {
                for value in entry.value.sequenceValue ?? [entry.value] {
                    guard let text = value.text else { continue }
                    // Prose (a `notes: |` block) is found by its words, not matched whole.
                    if text.utf8.count <= StoreIndex.longestMatchedValue {
                        post(TextFolding.folded(text), under: entry.key)
                        // A yes or no as typed reads take it (`finished: no` reads false)
                        // is found as the Bool too: `finished:false`.
                        if let flag = value.boolValue { post(flag ? "true" : "false", under: entry.key) }
                    }
                    if let date = value.calendarDate {
                        dates.append((entry.key, Double(date.daysSinceEpoch)))
                    } else if let number = StoreIndex.number(value) {
                        numbers.append((entry.key, number))
                    }
                }
            }
            // What the typed views know, under the names queries use.
            if let done = record.done, document["done"] == nil { post(done ? "true" : "false", under: "done") }
            if record.kind == .recipe, document["time"] == nil, let time = Recipe.time(in: document.fields) {
                numbers.append(("time", Double(time.seconds)))
            }
            // A todo's date is one field, whatever the file calls it (`due:` as `date:`):
            // `sort:date` and `date<today` find it.
            if record.kind == .todo, document["date"] == nil, let due = document["due"]?.calendarDate {
                dates.append(("date", Double(due.daysSinceEpoch)))
            }
        }

        /// Notes `value` under the field `key`, once.
        private mutating func post(_ value: String, under key: String) {
            guard let index = fields.firstIndex(where: { $0.key == key }) else { return fields.append((key, [value])) }
            if !fields[index].values.contains(value) { fields[index].values.append(value) }
        }

        /// The folded words and word-pair hashes of the title, the front matter's text and the body.
        private mutating func indexText(of record: Record, document: Document) {
            // Title, front-matter text and body as one run of bytes (all valid UTF-8), split
            // by line breaks: `herbert` finds `author: Frank Herbert`.
            var text = Array(record.title.utf8)
            text.append(10)
            Self.appendFrontMatterText(of: document, to: &text)
            text.append(contentsOf: Self.indexedBody(of: document.bytes, from: record.bodyStart))
            pairs.reserveCapacity(min(text.count / 4, 1 << 16))
            withUnsafeMutablePointer(to: &pairs) { pairs in
                text.withUnsafeBufferPointer { TextFolding.uniqueWordHashes(utf8: $0, into: &words, pairs: pairs) }
            }
        }
    }

    /// The index of a run of consecutive new ids, built on any thread and merged into
    /// the shared index with ``merge(_:)``.
    struct Chunk: Sendable {
        let firstID: Int32
        var records: [Record] = []
        var byKind: [Kind: [Int32]] = [:]
        var byTag: [String: [Int32]] = [:]
        var byWord: [UInt64: [Int32]] = [:]
        /// Pair hashes with the positions in the chunk of the records holding them.
        var pairs = PairTable()
        /// Records per chunk: a position is a byte.
        static let capacity = 256
        var byField: [String: [String: [Int32]]] = [:]
        var numbers: [(key: String, value: Double, id: Int32)] = []
        var dates: [(key: String, value: Double, id: Int32)] = []

        init(firstID: Int32) { self.firstID = firstID }

        /// The same chunk with its ids starting at `newFirst` (when files before it could not be read).
        func rebased(to newFirst: Int32) -> Chunk {
            guard newFirst != firstID else { return self }
            let shift = newFirst - firstID
            var copy = Chunk(firstID: newFirst)
            copy.records = records
            copy.byKind = byKind.mapValues { $0.map { $0 + shift } }
            copy.byTag = byTag.mapValues { $0.map { $0 + shift } }
            copy.byWord = byWord.mapValues { $0.map { $0 + shift } }
            copy.pairs = pairs
            copy.byField = byField.mapValues { $0.mapValues { $0.map { $0 + shift } } }
            copy.numbers = numbers.map { ($0.key, $0.value, $0.id + shift) }
            copy.dates = dates.map { ($0.key, $0.value, $0.id + shift) }
            return copy
        }

        /// Trims the chunk once every record is in.
        mutating func finish() { pairs.freeze() }

        mutating func add(_ record: Record, _ entry: Entry) {
            precondition(records.count < Chunk.capacity, "a chunk holds at most \(Chunk.capacity) records")
            let position = records.count
            let id = firstID + Int32(position)
            records.append(record)
            byKind[record.kind, default: []].append(id)
            for tag in Set(record.tags) { byTag[tag, default: []].append(id) }
            for word in entry.words { StoreIndex.post(id, to: &byWord[word, default: []]) }
            pairs.insert(contentsOf: entry.pairs, position: UInt8(position))
            for (key, values) in entry.fields { StoreIndex.post(id, under: values, in: &byField[key, default: [:]]) }
            for (key, value) in entry.numbers { numbers.append((key, value, id)) }
            for (key, value) in entry.dates { dates.append((key, value, id)) }
        }
    }

    /// Posts `id` under each of `values` in one field's table (handed in once: the field's
    /// name is hashed once per record, not once per value).
    static func post(_ id: Int32, under values: [String], in table: inout [String: [Int32]]) {
        for value in values { table[value, default: []].append(id) }
    }

    /// Posts a chunk's ids under each value of one field's table (handed in once, as above).
    static func post(_ chunk: [String: [Int32]], in table: inout [String: [Int32]]) {
        for (value, ids) in chunk { table[value, default: []].append(contentsOf: ids) }
    }

    /// Adds a chunk whose ids start at ``nextID``; sorted structures wait for ``finishBulk()``.
    mutating func merge(_ chunk: Chunk) {
        precondition(chunk.firstID == nextID, "chunks must be merged in id order")
        for record in chunk.records {
            idByPath[record.path] = nextID
            paths.append(record.path)
            rank.append(0)
        }
        for (kind, ids) in chunk.byKind { byKind[kind, default: []].append(contentsOf: ids) }
        for (tag, ids) in chunk.byTag { byTag[tag, default: []].append(contentsOf: ids) }
        for (word, ids) in chunk.byWord { byWord[word, default: []].append(contentsOf: ids) }
        byPair.append(chunk.pairs, firstID: chunk.firstID, count: chunk.records.count)
        for (key, values) in chunk.byField { Self.post(values, in: &byField[key, default: [:]]) }
        for (key, value, id) in chunk.numbers { numbers[key, default: SortedPairs()].insert(value, id, bulk: true) }
        for (key, value, id) in chunk.dates { dates[key, default: SortedPairs()].insert(value, id, bulk: true) }
    }

    /// Indexes a record under a new id, keeping sorted structures sorted and ranks current.
    mutating func insert(_ record: Record, _ entry: Entry) {
        let old = idByPath[record.path]
        if let old { kill(old) }
        let id = nextID
        paths.append(record.path)
        idByPath[record.path] = id
        rank.append(0)
        byKind[record.kind, default: []].append(id)
        for tag in Set(record.tags) { byTag[tag, default: []].append(id) }
        for word in entry.words { Self.post(id, to: &byWord[word, default: []]) }
        byPair.insert(Set(entry.pairs), id: id)
        for (key, values) in entry.fields { Self.post(id, under: values, in: &byField[key, default: [:]]) }
        for (key, value) in entry.numbers { numbers[key, default: SortedPairs()].insert(value, id, bulk: false) }
        for (key, value) in entry.dates { dates[key, default: SortedPairs()].insert(value, id, bulk: false) }
        rank(id, replacing: old)
    }

    /// Gives a new id its place in path order: the place of the id it replaces, else
    /// found by binary search, the ids after it moving down one.
    private mutating func rank(_ id: Int32, replacing old: Int32?) {
        if let old {
            rank[Int(id)] = rank[Int(old)]
            byRank[Int(rank[Int(id)])] = id
            return
        }
        let path = paths[Int(id)]!
        var low = 0, high = byRank.count
        while low < high {
            let middle = (low + high) / 2
            if paths[Int(byRank[middle])]! < path { low = middle + 1 } else { high = middle }
        }
        byRank.insert(id, at: low)
        for position in low..<byRank.count { rank[Int(byRank[position])] = Int32(position) }
    }

    /// Values longer than this many bytes are not indexed for `key:value` equality.
    static let longestMatchedValue = 120

    /// The most of a body indexed for words and phrases (16 MiB): a file past it is no
    /// hand-edited record (a log, a dump), and indexing all of a 200 MB file cost three
    /// times its size in memory. Its first 16 MiB are searchable; the rest is not.
    static let largestIndexedBody = 16 << 20

    /// A number, or a duration in seconds (`15m`), for comparisons.
    static func number(_ value: YAMLValue) -> Double? {
        switch value {
        case .int(let n): return Double(n)
        case .float(let n): return n.isNaN ? nil : n
        case .string(let text):
            // Only text that starts like a number or an ISO duration can be one.
            guard let first = text.utf8.first, (first >= 48 && first <= 57) || first == UInt8(ascii: "P") || first == UInt8(ascii: ".") else {
                return nil
            }
            return TimeSpan(text).map { Double($0.seconds) } ?? value.doubleValue
        default: return nil
        }
    }

    /// Removes a path's record.
    mutating func remove(_ path: String) {
        guard let id = idByPath.removeValue(forKey: path) else { return }
        let position = Int(rank[Int(id)])
        byRank.remove(at: position)
        for later in position..<byRank.count { rank[Int(byRank[later])] = Int32(later) }
        paths[Int(id)] = nil
        deadCount += 1
    }

    private mutating func kill(_ id: Int32) {
        paths[Int(id)] = nil
        deadCount += 1
    }

    /// Makes room for `count` records before a bulk load: the table of paths grown a
    /// step at a time moved every path it held at each step (1% of a 100,000-file load,
    /// on the thread that merges).
    mutating func reserveCapacity(_ count: Int) {
        idByPath.reserveCapacity(count)
        paths.reserveCapacity(count)
        rank.reserveCapacity(count)
    }

    /// Sorts what bulk inserts left unsorted, trims posting lists to their size, and ranks paths.
    mutating func finishBulk() {
        for key in numbers.keys { numbers[key]!.finishBulk() }
        for key in dates.keys { dates[key]!.finishBulk() }
        for key in byWord.keys { byWord[key] = Array(byWord[key]![...]) }
        rerank()
    }

    /// Ranks live ids by path, for results in path order.
    mutating func rerank() {
        byRank = liveIDs
        // Ids already follow path order after loading a folder: then no sort is needed.
        if !zip(byRank, byRank.dropFirst()).allSatisfy({ paths[Int($0)]! < paths[Int($1)]! }) {
            byRank.sort { paths[Int($0)]! < paths[Int($1)]! }
        }
        for (position, id) in byRank.enumerated() { rank[Int(id)] = Int32(position) }
    }

    /// Whether enough ids are dead for ``compact()`` to pay: as many as live ones, and
    /// more than a thousand. Each compaction walks every posting list and leaves the
    /// allocator with freed pages, so it is kept rare; the index stays within about
    /// twice what a fresh load of the same files holds.
    var needsCompaction: Bool { deadCount > 1024 && deadCount > paths.count / 2 }

    /// Renumbers the live ids 0, 1, 2… in their old order, so every posting list stays
    /// ascending and every rank stays put, and drops dead ids, and the keys left with
    /// none, from every list. Returns each old id's new number (-1 for a dead one), for
    /// whatever is kept by id beside the index.
    @discardableResult
    mutating func compact() -> [Int32] {
        var newID = [Int32](repeating: -1, count: paths.count)
        var next: Int32 = 0
        for (old, path) in paths.enumerated() where path != nil {
            newID[old] = next
            next += 1
        }
        // In place: each list keeps its storage, so a compaction does not build a second
        // index beside the first (a process that follows a folder for weeks would keep
        // the pages of the peak).
        func clean<Key>(_ lists: inout [Key: [Int32]]) {
            Self.updateValues(&lists) { ids in
                Self.renumber(&ids, newID)
                return ids.isEmpty
            }
        }
        clean(&byKind)
        clean(&byTag)
        clean(&byWord)
        Self.updateValues(&byField) { lists in
            clean(&lists)
            return lists.isEmpty
        }
        byPair.renumber(newID)
        for sorted in [\StoreIndex.numbers, \StoreIndex.dates] {
            Self.updateValues(&self[keyPath: sorted]) { pairs in
                pairs.renumber(newID)
                return pairs.count == 0
            }
        }
        var newRank = [Int32](repeating: 0, count: Int(next))
        for (old, id) in newID.enumerated() where id >= 0 { newRank[Int(id)] = rank[old] }
        rank = newRank
        byRank = byRank.map { newID[Int($0)] }
        paths = paths.filter { $0 != nil }
        idByPath = idByPath.mapValues { newID[Int($0)] }
        deadCount = 0
        compactions += 1
        return newID
    }

    /// Changes every value of `dictionary` in place with `update`, then drops the keys
    /// whose value `update` says it left empty.
    static func updateValues<Key, Value>(_ dictionary: inout [Key: Value], _ update: (inout Value) -> Bool) {
        var emptied: [Key] = []
        for index in dictionary.indices where update(&dictionary.values[index]) { emptied.append(dictionary.keys[index]) }
        for key in emptied { dictionary[key] = nil }
    }

    /// Renumbers `ids` by `newID` in place, dropping the ones that are gone.
    static func renumber(_ ids: inout [Int32], _ newID: [Int32]) {
        var kept = 0
        for index in ids.indices where newID[Int(ids[index])] >= 0 {
            ids[kept] = newID[Int(ids[index])]
            kept += 1
        }
        ids.removeLast(ids.count - kept)
    }

    /// How many entries the index holds: ids, and ids in every posting list, live or
    /// not. Edits that bring every file back to what it held leave this where it was
    /// once the index is compacted.
    var entryCount: Int {
        // Keys and ids of posting lists keyed by text or by a word's hash alike.
        func entries<Key>(_ list: [Key: [Int32]]) -> Int { list.count + list.values.reduce(0) { $0 + $1.count } }
        return paths.count + rank.count + byRank.count + idByPath.count
            + byKind.values.reduce(0) { $0 + $1.count }
            + entries(byTag) + entries(byWord) + byField.values.reduce(0) { $0 + entries($1) }
            + byPair.entryCount
            + numbers.values.reduce(0) { $0 + $1.count } + dates.values.reduce(0) { $0 + $1.count }
    }

    #if DEBUG
    /// Every live path has exactly one live id, and every posting list is ascending.
    func _checkInvariants() {
        for (path, id) in idByPath { precondition(paths[Int(id)] == path, "id \(id) of \(path) is not live") }
        precondition(paths.compactMap { $0 }.count == idByPath.count, "live ids and paths disagree")
        precondition(byRank.count == idByPath.count, "ranked ids and live paths disagree")
        for (position, id) in byRank.enumerated() {
            precondition(rank[Int(id)] == Int32(position), "rank of \(id) is not its place")
            precondition(position == 0 || paths[Int(byRank[position - 1])]! < paths[Int(id)]!, "ranks out of path order")
        }
        func check(_ ids: [Int32], _ key: String) {
            precondition(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "postings of \(key) not ascending")
            precondition(ids.allSatisfy { $0 >= 0 && $0 < nextID }, "postings of \(key) hold an id past the last")
        }
        for lists in [byTag] + Array(byField.values) {
            for (key, ids) in lists { check(ids, key) }
        }
        for (word, ids) in byWord { check(ids, "word \(word)") }
        for pairs in Array(numbers.values) + Array(dates.values) {
            precondition(pairs.ids.allSatisfy { $0 >= 0 && $0 < nextID }, "sorted values hold an id past the last")
        }
    }
    #else
    func _checkInvariants() {}
    #endif
}

extension StoreIndex.Entry {
    /// The front matter's text values (strings and the strings of lists, each on a line
    /// of its own, but for the title and the kind), for the full-text index and the
    /// phrase check: numbers, durations, dates and yes/no values are found by
    /// `key:value` and comparisons, not as words.
    static func appendFrontMatterText(of document: Document, to text: inout [UInt8]) {
        // The title is indexed already, as the record's; `kind:` is asked as kind:K.
        for entry in document.fields.entries where entry.key != "title" && entry.key != "kind" {
            for value in entry.value.sequenceValue ?? [entry.value] {
                // Text only: what typed reads take for a number, a duration, a date or a
                // yes/no is asked by `key:value` and comparisons, not as a word.
                guard case .string(let string) = value, !string.isEmpty, value.doubleValue == nil, value.boolValue == nil,
                      value.calendarDate == nil, TimeSpan(value) == nil
                else { continue }
                text.append(contentsOf: string.utf8)
                text.append(10)
            }
        }
    }
}
