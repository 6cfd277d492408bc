/// A chunk's word-pair postings while it is built: pair hashes grouped with the
/// positions of the records holding them, in one open-addressing table and one
/// array of linked nodes, so that grouping costs a probe per pair instead of a
/// dictionary access or a sort.
struct PairTable: Sendable {
    /// Slot → pair hash (``TextFolding/pairHash(_:_:)``: low 8 bits clear, never 0); 0 marks an empty slot.
    private var keys: [UInt64]
    /// Slot → first and last node of the pair's positions.
    private var heads: [Int32]
    private var tails: [Int32]
    /// Node → record position in the chunk, and the next node of the same pair (-1 ends).
    private var positions: [UInt8] = []
    private var next: [Int32] = []
    /// How many slots hold a pair.
    private(set) var count = 0

    init() {
        keys = [UInt64](repeating: 0, count: 1024)
        heads = [Int32](repeating: -1, count: 1024)
        tails = heads
    }

    /// Records that the record at `position` holds the pair `hash`; a repeat of the
    /// last position of the same pair is dropped.
    mutating func insert(_ hash: UInt64, position: UInt8) {
        precondition(hash != 0, "pair hashes are never 0")
        let key = hash
        var slot = Int(truncatingIfNeeded: key >> 8 ^ key >> 37) & (keys.count - 1)
        while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & (keys.count - 1) }
        if keys[slot] == key {
            precondition(!tails.isEmpty, "a frozen pair table takes no more pairs")
            let tail = Int(tails[slot])
            guard positions[tail] != position else { return }
            next[tail] = Int32(positions.count)
        } else {
            keys[slot] = key
            heads[slot] = Int32(positions.count)
            count += 1
        }
        tails[slot] = Int32(positions.count)
        positions.append(position)
        next.append(-1)
        if count * 2 > keys.count { grow() }
    }

    private mutating func grow() {
        let old = (keys, heads, tails)
        let size = keys.count * 2
        keys = [UInt64](repeating: 0, count: size)
        heads = [Int32](repeating: -1, count: size)
        tails = heads
        for (oldSlot, key) in old.0.enumerated() where key != 0 {
            var slot = Int(truncatingIfNeeded: key >> 8 ^ key >> 37) & (size - 1)
            while keys[slot] != 0 { slot = (slot + 1) & (size - 1) }
            (keys[slot], heads[slot], tails[slot]) = (key, old.1[oldSlot], old.2[oldSlot])
        }
    }

    /// Drops what only insertion needs and trims spare capacity, once the table is complete.
    mutating func freeze() {
        tails = []
        positions = Array(positions)
        next = Array(next)
    }
}

extension PairTable {
    /// The positions holding the pair `hash`, ascending.
    func positions(of hash: UInt64) -> [UInt8] {
        var slot = Int(truncatingIfNeeded: hash >> 8 ^ hash >> 37) & (keys.count - 1)
        while keys[slot] != 0 && keys[slot] != hash { slot = (slot + 1) & (keys.count - 1) }
        guard keys[slot] == hash else { return [] }
        var out: [UInt8] = []
        var node = Int(heads[slot])
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
        for key in keys where key != 0 { body(key, positions(of: key)) }
    }
}
