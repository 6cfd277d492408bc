import FolioFormat
import FolioModel

extension StoreState {
    /// The records matching `query`, in its sort order (path order when it has none),
    /// at most its limit. Conditions are answered from the indexes; only quoted
    /// phrases are checked against the text of the records the words already found.
    public func records(matching query: Query) -> [Record] {
        var candidates: [Int32]?
        func narrow(_ ids: [Int32]) {
            candidates = candidates.map { StoreState.intersect($0, ids) } ?? ids
        }
        var phrases: [[String]] = []
        // Cheapest first: equality and tags before ranges and words.
        for term in query.terms {
            switch term {
            case .field(let key, let value):
                switch key {
                case "kind": narrow(index.byKind[Kind(rawValue: value)] ?? [])
                case "tag": narrow(index.byTag[value] ?? [])
                default: narrow(index.byField[key]?[value] ?? [])
                }
            case .compare(let key, let comparison, let bound):
                switch bound {
                case .number(let n): narrow((index.numbers[key]?.ids(comparison, n)).map { $0.sorted() } ?? [])
                case .date(let d): narrow((index.dates[key]?.ids(comparison, Double(d.daysSinceEpoch))).map { $0.sorted() } ?? [])
                }
            case .text(let words, let phrase):
                for word in words { narrow(index.byWord[word] ?? []) }
                if phrase && words.count > 1 { phrases.append(words) }
            }
        }
        var ids = (candidates ?? index.liveIDs).filter(index.isLive)
        if !phrases.isEmpty {
            ids = ids.filter { id in
                guard let record = record(id: id), record.isValid else { return false }
                let text = " " + TextFolding.folded(record.title + "\n" + record.body) + " "
                return phrases.allSatisfy { text.contains(" " + $0.joined(separator: " ") + " ") }
            }
        }
        ids = ordered(ids, by: query.sortKey, descending: query.descending, limit: query.limit)
        return ids.compactMap(record(id:))
    }

    func record(id: Int32) -> Record? { index.path(of: id).flatMap { records[$0] } }

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
        var wanted = Set(ids)
        var out: [Int32] = []
        let positions = descending ? Array(pairs.ids.indices.reversed()) : Array(pairs.ids.indices)
        for position in positions where out.count < limit {
            let id = pairs.ids[position]
            if wanted.remove(id) != nil { out.append(id) }
        }
        if out.count < limit {
            out += ordered(Array(wanted), by: nil, descending: false, limit: limit - out.count)
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
