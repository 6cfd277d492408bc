/// Values with the record ids that hold them, sorted by value: a range lookup is two
/// binary searches.
struct SortedPairs: Sendable {
    private(set) var values: [Double] = []
    private(set) var ids: [Int32] = []
    private var sorted = true

    var count: Int { values.count }

    /// Adds a pair; with `bulk`, sorting waits for ``finishBulk()``.
    mutating func insert(_ value: Double, _ id: Int32, bulk: Bool) {
        if bulk {
            values.append(value)
            ids.append(id)
            sorted = false
            return
        }
        let at = lowerBound(value)
        values.insert(value, at: at)
        ids.insert(id, at: at)
    }

    mutating func finishBulk() {
        guard !sorted else { return }
        let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && ids[$0] < ids[$1]) }
        values = order.map { values[$0] }
        ids = order.map { ids[$0] }
        sorted = true
    }

    /// Gives every id its new number (`newID[old]`, -1 for a record that is gone),
    /// dropping the pairs of records that are gone. Renumbering keeps the order of ids,
    /// so pairs of equal value stay in id order.
    mutating func renumber(_ newID: [Int32]) {
        var kept = 0
        for index in ids.indices where newID[Int(ids[index])] >= 0 {
            (values[kept], ids[kept]) = (values[index], newID[Int(ids[index])])
            kept += 1
        }
        values.removeLast(values.count - kept)
        ids.removeLast(ids.count - kept)
    }

    /// The first position whose value is not less than `value`.
    func lowerBound(_ value: Double) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first position whose value is greater than `value`.
    func upperBound(_ value: Double) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The ids whose value satisfies the comparison.
    func ids(_ comparison: Comparison, _ bound: Double) -> ArraySlice<Int32> {
        switch comparison {
        case .less: return ids[0..<lowerBound(bound)]
        case .lessOrEqual: return ids[0..<upperBound(bound)]
        case .greater: return ids[upperBound(bound)...]
        case .greaterOrEqual: return ids[lowerBound(bound)...]
        case .equal: return ids[lowerBound(bound)..<upperBound(bound)]
        }
    }
}

/// A comparison in a query.
public enum Comparison: String, Sendable, Hashable {
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "="
}
