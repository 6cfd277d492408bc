/// Record ids by word-pair hash, for phrase queries: the tables of the chunks a load
/// built, kept as they are (merging them into one dictionary cost a sequential
/// dictionary access per pair and chunk), then a dictionary for records indexed one
/// at a time. A table maps its positions to ids; once a record of a table is gone,
/// renumbering moves the table's live records into the dictionary and drops the
/// table, so what the postings hold follows the live records.
struct PairPostings: Sendable {
    private var tables: [(ids: [Int32], table: PairTable)] = []
    private var recent: [UInt64: [Int32]] = [:]

    /// Adds a loaded chunk's table of `count` records; its ids start at `firstID`,
    /// past every id held so far.
    mutating func append(_ table: PairTable, firstID: Int32, count: Int) {
        precondition(recent.isEmpty, "loaded chunks come before single records")
        tables.append(((0..<Int32(count)).map { firstID + $0 }, table))
    }

    /// Indexes `id`, newer than every id held so far, under each of `hashes`.
    mutating func insert(_ hashes: Set<UInt64>, id: Int32) {
        for hash in hashes { recent[hash, default: []].append(id) }
    }

    /// The ids holding the pair `hash`, ascending.
    subscript(hash: UInt64) -> [Int32] {
        var ids: [Int32] = []
        for (positionIDs, table) in tables {
            ids.append(contentsOf: table.positions(of: hash).lazy.map { positionIDs[Int($0)] })
        }
        // Records of dissolved tables sit in the dictionary below the tables' ids.
        return StoreIndex.mergedAscending(ids, recent[hash] ?? [])
    }

    /// Gives every id its new number (`newID[old]`, -1 for a record that is gone);
    /// renumbering keeps the order of ids, so every list stays ascending. A table that
    /// lost a record is dissolved: its live records' pairs join the dictionary.
    mutating func renumber(_ newID: [Int32]) {
        recent = recent.compactMapValues { ids in
            let kept = StoreIndex.renumbered(ids, newID)
            return kept.isEmpty ? nil : kept
        }
        var kept: [(ids: [Int32], table: PairTable)] = []
        var dissolved: [UInt64: [Int32]] = [:]
        for (positionIDs, table) in tables {
            let renumbered = positionIDs.map { newID[Int($0)] }
            guard renumbered.contains(-1) else {
                kept.append((renumbered, table))
                continue
            }
            table.forEachPair { hash, positions in
                for position in positions where renumbered[Int(position)] >= 0 {
                    dissolved[hash, default: []].append(renumbered[Int(position)])
                }
            }
        }
        tables = kept
        for (hash, ids) in dissolved { recent[hash] = StoreIndex.mergedAscending(ids, recent[hash] ?? []) }
    }

    /// How many (pair, id) entries the postings hold, live or not.
    var entryCount: Int {
        tables.reduce(0) { $0 + $1.table.nodeCount } + recent.values.reduce(0) { $0 + $1.count }
    }
}
