/// A piece of a sequence that a three-way merge matches across the versions by a key
/// (a front-matter key, a section's heading, a list item's identity) rather than by
/// position, so that what moved or what both sides added next to each other does not
/// conflict.
struct KeyedUnit<Content: Equatable>: Equatable {
    var key: String
    var content: Content
}

/// What the merge of one keyed unit gave.
enum UnitOutcome<Content: Equatable>: Equatable {
    /// This content, merged cleanly.
    case clean(Content)
    /// The sides disagree; nil is a side that removed the unit.
    case conflict(ours: Content?, base: Content?, theirs: Content?)
}

enum KeyedMerge {
    /// Merges three versions of a keyed sequence, unit by unit: changed on one side →
    /// that side; the same on both → once; removed on one side and untouched on the
    /// other → removed; changed differently on both → `bothChanged` (base nil when
    /// both added it), a conflict when it returns nil or when one side removed what
    /// the other changed. With `alignReplacements`, list items are paired with the
    /// items they replaced first (``aligningReplacements(_:to:)``). The result follows our
    /// order — theirs when only their side moved units, so that a move is kept; a unit
    /// only the other side has goes after the unit it follows in that side's version (and
    /// after what the first added there), or at the end when it is after every unit of the
    /// base (and every unit both have) there.
    static func merge<C: Equatable>(
        base: [KeyedUnit<C>], ours: [KeyedUnit<C>], theirs: [KeyedUnit<C>], alignReplacements: Bool = false,
        bothChanged: (_ base: C?, _ ours: C, _ theirs: C) -> C?
    ) -> [KeyedUnit<UnitOutcome<C>>] {
        // List items are known by their content, so an edited item needs pairing with what it replaced;
        // keys of a mapping are their own identity.
        let ours = alignReplacements ? aligningReplacements(ours, to: base) : ours
        let theirs = alignReplacements ? aligningReplacements(theirs, to: base) : theirs
        let baseByKey = Dictionary(base.map { ($0.key, $0.content) }, uniquingKeysWith: { first, _ in first })
        let oursByKey = Dictionary(ours.map { ($0.key, $0.content) }, uniquingKeysWith: { first, _ in first })
        let theirsByKey = Dictionary(theirs.map { ($0.key, $0.content) }, uniquingKeysWith: { first, _ in first })

        func outcome(_ key: String) -> UnitOutcome<C>? {
            let b = baseByKey[key], o = oursByKey[key], t = theirsByKey[key]
            if o == t { return o.map { .clean($0) } }
            if o == b { return t.map { .clean($0) } }
            if t == b { return o.map { .clean($0) } }
            guard let o, let t else { return .conflict(ours: o, base: b, theirs: t) }
            return bothChanged(b, o, t).map { .clean($0) } ?? .conflict(ours: o, base: b, theirs: t)
        }

        // The order is ours, unless only their side moved units (the order of the units all
        // three have changed on their side alone): then theirs, so that a move is kept.
        let theirOrder = movedOnlyBy(theirs, not: ours, from: base)
        let (first, second, secondByKey) = theirOrder ? (theirs, ours, oursByKey) : (ours, theirs, theirsByKey)
        var result: [KeyedUnit<UnitOutcome<C>>] = []
        var placed = Set<String>()
        for unit in first {
            guard let merged = outcome(unit.key) else { continue }
            result.append(KeyedUnit(key: unit.key, content: merged))
            placed.insert(unit.key)
        }
        // Units the first side does not have: the other's additions, or what the first removed and the other changed.
        for (index, unit) in second.enumerated() where !placed.contains(unit.key) {
            guard let merged = outcome(unit.key) else { continue }
            var position = 0
            // (Anchors are units the base had, or that both sides have, such as the lines
            // after a list both sides started.)
            if !second[(index + 1)...].contains(where: { baseByKey[$0.key] != nil || placed.contains($0.key) }) {
                // Added at the other's end: at the end, whatever order the first put the rest in.
                position = result.count
            } else if let previous = second[..<index].last(where: { placed.contains($0.key) }),
               let at = result.firstIndex(where: { $0.key == previous.key })
            {
                position = at + 1
                // Past what only the first side added right there, so both sides' additions keep their order.
                while position < result.count, baseByKey[result[position].key] == nil, secondByKey[result[position].key] == nil {
                    position += 1
                }
            }
            result.insert(KeyedUnit(key: unit.key, content: merged), at: position)
            placed.insert(unit.key)
        }
        return result
    }

    /// Whether `side` changed the order of the units all three versions have, and
    /// `other` did not.
    static func movedOnlyBy<C>(_ side: [KeyedUnit<C>], not other: [KeyedUnit<C>], from base: [KeyedUnit<C>]) -> Bool {
        let (b, s, o) = commonOrders(base, side, other)
        return s != b && o == b
    }

    /// The keys all three versions have, in each one's order.
    static func commonOrders<C>(_ base: [KeyedUnit<C>], _ ours: [KeyedUnit<C>], _ theirs: [KeyedUnit<C>]) -> ([String], [String], [String]) {
        let common = Set(base.map(\.key)).intersection(ours.map(\.key)).intersection(theirs.map(\.key))
        func order(_ units: [KeyedUnit<C>]) -> [String] { units.map(\.key).filter(common.contains) }
        return (order(base), order(ours), order(theirs))
    }

    /// Keys made unique by counting repeats (`Notes`, `Notes` + NUL + `2`), so that units
    /// with the same name match their namesakes in order (a NUL cannot be in a title, so
    /// a counted key never equals a real one).
    static func uniqueKeys(_ keys: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return keys.map { key in
            seen[key, default: 0] += 1
            return seen[key]! == 1 ? key : "\(key)\u{0}\(seen[key]!)"
        }
    }

    /// `side` with each unit that took the place of a removed base unit (a run of
    /// removals and additions at the same place, paired in order) given the removed
    /// unit's key: an item whose text was edited is then the same item, changed — so
    /// two different edits of one item conflict instead of both being added.
    static func aligningReplacements<C: Equatable>(_ side: [KeyedUnit<C>], to base: [KeyedUnit<C>]) -> [KeyedUnit<C>] {
        let baseKeys = base.map(\.key), sideKeys = side.map(\.key)
        let inBase = Set(baseKeys), inSide = Set(sideKeys)
        // Longest common subsequence of keys (lists are short).
        let n = baseKeys.count, m = sideKeys.count
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = baseKeys[i] == sideKeys[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var result = side
        var i = 0, j = 0
        var removed: [String] = [], added: [Int] = []
        func pairUp() {
            for (key, index) in zip(removed, added) where !inSide.contains(key) && !inBase.contains(result[index].key) {
                result[index].key = key
            }
            removed.removeAll()
            added.removeAll()
        }
        while i < n || j < m {
            if i < n && j < m && baseKeys[i] == sideKeys[j] {
                pairUp()
                i += 1
                j += 1
            } else if j < m && (i == n || table[i][j + 1] >= table[i + 1][j]) {
                added.append(j)
                j += 1
            } else {
                removed.append(baseKeys[i])
                i += 1
            }
        }
        pairUp()
        return result
    }
}
