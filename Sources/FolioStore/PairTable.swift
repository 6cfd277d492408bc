/// A chunk's word-pair postings while it is built: pair hashes grouped with the
/// positions of the records holding them, in one open-addressing table and one
/// array of linked nodes, so that grouping costs a probe per pair instead of a
/// dictionary access or a sort.
struct PairTable: Sendable {
    /// A slot while the table is built: the pair hash (``TextFolding/pairHash(_:_:)``:
    /// low 8 bits clear, never 0; 0 marks an empty slot) with the first and last node of
    /// its positions, side by side: a probe touches one cache line, not three (held in
    /// three arrays, the table's misses were most of a load's indexing of pairs).
    private struct Slot {
        var key: UInt64
        var head: Int32
        var tail: Int32
    }

    /// The slots while the table is built (emptied by ``freeze()``).
    private var slots: [Slot]
    /// Slot → pair hash and first node, once frozen: the last nodes only served insertion.
    private var keys: [UInt64] = []
    private var heads: [Int32] = []
    /// Node → record position in the chunk, and the next node of the same pair (-1 ends).
    private var positions: [UInt8] = []
    private var next: [Int32] = []
    /// How many slots hold a pair.
    private(set) var count = 0

    init() {
        slots = [Slot](repeating: Slot(key: 0, head: -1, tail: -1), count: 1024)
    }

    /// Records that the record at `position` holds the pair `hash`; a repeat of the
    /// last position of the same pair is dropped.
    mutating func insert(_ hash: UInt64, position: UInt8) {
        insert(contentsOf: CollectionOfOne(hash), position: position)
    }

    /// Records that the record at `position` holds each pair of `hashes`; a repeat of the
    /// last position of the same pair is dropped (as by ``insert(_:position:)``).
    mutating func insert<Hashes: Collection<UInt64>>(contentsOf hashes: Hashes, position: UInt8) {
        precondition(keys.isEmpty && !slots.isEmpty, "a frozen pair table takes no more pairs")
        guard !hashes.isEmpty else { return }
        let base = positions.count
        // Room for a node per pair, trimmed after to the nodes made.
        positions.append(contentsOf: repeatElement(position, count: hashes.count))
        next.append(contentsOf: repeatElement(-1, count: hashes.count))
        var node = base
        var from = hashes.startIndex
        // The table doubles when a new pair would fill more than half of it (as pairs
        // come, not by the record's count of them: the tables stay as small as before).
        while let stopped = insert(hashes[from...], at: position, node: &node) {
            from = stopped
            grow()
        }
        positions.removeLast(positions.count - node)
        next.removeLast(next.count - node)
    }

    /// Inserts `hashes`, held at `position`, as nodes from `node` on; the index of the
    /// first pair left out for want of room, if any (the table must grow first).
    private mutating func insert<Hashes: Collection<UInt64>>(_ hashes: Hashes, at position: UInt8, node: inout Int) -> Hashes.Index? {
        var added = 0
        defer { count += added }
        let room = slots.count / 2 - count
        return slots.withUnsafeMutableBufferPointer { slots -> Hashes.Index? in
            next.withUnsafeMutableBufferPointer { next -> Hashes.Index? in
                positions.withUnsafeBufferPointer { positions -> Hashes.Index? in
                    let mask = slots.count - 1
                    var at = hashes.startIndex
                    while at != hashes.endIndex {
                        defer { hashes.formIndex(after: &at) }
                        let key = hashes[at]
                        precondition(key != 0, "pair hashes are never 0")
                        var slot = Int(truncatingIfNeeded: key >> 8 ^ key >> 37) & mask
                        while slots[slot].key != 0 && slots[slot].key != key { slot = (slot + 1) & mask }
                        if slots[slot].key == key {
                            let tail = Int(slots[slot].tail)
                            // The pair's last node already at this position: a repeat
                            // (a byte per node: the chunk's nodes sit in the core's cache).
                            if positions[tail] == position { continue }
                            next[tail] = Int32(node)
                        } else {
                            guard added < room else { return at }
                            slots[slot] = Slot(key: key, head: Int32(node), tail: -1)
                            added += 1
                        }
                        slots[slot].tail = Int32(node)
                        node += 1
                    }
                    return nil
                }
            }
        }
    }

    private mutating func grow() {
        let old = slots
        let size = slots.count * 2
        slots = [Slot](repeating: Slot(key: 0, head: -1, tail: -1), count: size)
        for entry in old where entry.key != 0 {
            var slot = Int(truncatingIfNeeded: entry.key >> 8 ^ entry.key >> 37) & (size - 1)
            while slots[slot].key != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = entry
        }
    }

    /// Drops what only insertion needs and trims spare capacity, once the table is complete.
    mutating func freeze() {
        guard keys.isEmpty else { return }
        keys = slots.map(\.key)
        heads = slots.map(\.head)
        slots = []
        // Copied through a buffer: `Array(array)` keeps the same storage, spare room and all
        // (a quarter of the nodes' memory, grown by doubling).
        positions = positions.withUnsafeBufferPointer { Array($0) }
        next = next.withUnsafeBufferPointer { Array($0) }
    }

    /// The key and first node of every slot, whether the table is frozen or not.
    private func slot(_ index: Int) -> (key: UInt64, head: Int32) {
        keys.isEmpty ? (slots[index].key, slots[index].head) : (keys[index], heads[index])
    }

    /// How many slots the table has.
    private var slotCount: Int { keys.isEmpty ? slots.count : keys.count }
}

extension PairTable {
    /// The positions holding the pair `hash`, ascending.
    func positions(of hash: UInt64) -> [UInt8] {
        let mask = slotCount - 1
        var index = Int(truncatingIfNeeded: hash >> 8 ^ hash >> 37) & mask
        while slot(index).key != 0 && slot(index).key != hash { index = (index + 1) & mask }
        guard slot(index).key == hash else { return [] }
        var out: [UInt8] = []
        var node = Int(slot(index).head)
        while node >= 0 {
            out.append(positions[node])
            node = Int(next[node])
        }
        return out
    }

    /// How many (pair, position) nodes the table holds.
    var nodeCount: Int { positions.count }

    /// Calls `body` with each pair hash and the positions holding it, ascending.
    func forEachPair(_ body: (UInt64, [UInt8]) -> Void) {
        for index in 0..<slotCount {
            let key = slot(index).key
            if key != 0 { body(key, positions(of: key)) }
        }
    }
}
