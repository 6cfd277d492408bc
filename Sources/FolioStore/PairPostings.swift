/// Record ids by word-pair hash, for phrase queries: the tables of the chunks a load
/// built, kept as they are (merging them into one dictionary cost a sequential
/// dictionary access per pair and chunk), then a dictionary for records indexed one
/// at a time. A table maps its positions to ids; renumbering (``renumber(_:)``) puts
/// everything back into compact tables, so what the postings hold follows the live
/// records.
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
        // The tables hold ids in order, and the dictionary only ids newer than all of
        // theirs (``renumber(_:)`` empties it into tables).
        return ids + (recent[hash] ?? [])
    }

    /// Gives every id its new number (`newID[old]`, -1 for a record that is gone);
    /// renumbering keeps the order of ids, so every list stays ascending. Everything
    /// ends up in compact tables again: a table that lost records is rebuilt with the
    /// rest, and the records indexed one at a time since go into tables of their own
    /// (they are newer than every table's, so the tables stay in id order). A store
    /// that follows a folder for weeks thus holds its pairs as compactly as a fresh load.
    mutating func renumber(_ newID: [Int32]) {
        var rebuilt: [(ids: [Int32], table: PairTable)] = []
        for (positionIDs, table) in tables {
            let renumbered = positionIDs.map { newID[Int($0)] }
            guard renumbered.contains(-1) else {
                rebuilt.append((renumbered, table))
                continue
            }
            var livePositions: [Int] = []
            var newPosition = [Int](repeating: -1, count: renumbered.count)
            for (position, id) in renumbered.enumerated() where id >= 0 {
                newPosition[position] = livePositions.count
                livePositions.append(position)
            }
            guard !livePositions.isEmpty else { continue }
            var compact = PairTable()
            table.forEachPair { hash, positions in
                for position in positions where newPosition[Int(position)] >= 0 {
                    compact.insert(hash, position: UInt8(newPosition[Int(position)]))
                }
            }
            compact.freeze()
            rebuilt.append((livePositions.map { renumbered[$0] }, compact))
        }
        var hashesByID: [Int32: [UInt64]] = [:]
        for (hash, ids) in recent {
            for id in ids where newID[Int(id)] >= 0 { hashesByID[newID[Int(id)], default: []].append(hash) }
        }
        let ids = hashesByID.keys.sorted()
        for start in stride(from: 0, to: ids.count, by: StoreIndex.Chunk.capacity) {
            let group = Array(ids[start..<min(start + StoreIndex.Chunk.capacity, ids.count)])
            var table = PairTable()
            for (position, id) in group.enumerated() {
                table.insert(contentsOf: hashesByID[id]!, position: UInt8(position))
            }
            table.freeze()
            rebuilt.append((group, table))
        }
        tables = rebuilt
        recent = [:]
    }

    /// How many (pair, id) entries the postings hold, live or not.
    var entryCount: Int {
        tables.reduce(0) { $0 + $1.table.nodeCount } + recent.values.reduce(0) { $0 + $1.count }
    }
}
