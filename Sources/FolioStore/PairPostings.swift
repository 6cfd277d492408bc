/// Record ids by word-pair hash, for phrase queries: the tables of the chunks a load
/// built, kept as they are (merging them into one dictionary cost a sequential
/// dictionary access per pair and chunk), then a dictionary for records indexed one
/// at a time. Ids only grow, so the tables in load order, then the dictionary, give
/// every list in ascending order. Dead ids stay until the caller filters them.
struct PairPostings: Sendable {
    private var tables: [(firstID: Int32, table: PairTable)] = []
    private var recent: [UInt64: [Int32]] = [:]

    /// Adds a loaded chunk's table; its ids start at `firstID`, past every id held so far.
    mutating func append(_ table: PairTable, firstID: Int32) {
        precondition(recent.isEmpty, "loaded chunks come before single records")
        tables.append((firstID, table))
    }

    /// Indexes `id`, newer than every id held so far, under each of `hashes`.
    mutating func insert(_ hashes: Set<UInt64>, id: Int32) {
        for hash in hashes { recent[hash, default: []].append(id) }
    }

    /// The ids holding the pair `hash`, ascending.
    subscript(hash: UInt64) -> [Int32] {
        var ids: [Int32] = []
        for (firstID, table) in tables {
            ids.append(contentsOf: table.positions(of: hash).lazy.map { firstID + Int32($0) })
        }
        return ids + (recent[hash] ?? [])
    }

    /// Drops dead ids from the single records' lists (a loaded table keeps them until
    /// the next load; queries skip dead ids).
    mutating func removeAll(where dead: (Int32) -> Bool) {
        for key in Array(recent.keys) {
            let kept = recent[key]!.filter { !dead($0) }
            recent[key] = kept.isEmpty ? nil : kept
        }
    }
}
