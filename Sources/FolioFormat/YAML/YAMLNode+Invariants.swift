extension YAMLNode {
    /// Checks what every parsed tree must satisfy: children lie inside their parent's
    /// range, in order and without overlapping; a mapping's keys are unique; the
    /// resolved value agrees with the children. Does nothing in release builds.
    package func _checkInvariants() {
        #if DEBUG
        precondition(range.lowerBound <= range.upperBound, "node range is reversed: \(range)")
        var children: [YAMLNode] = []
        switch content {
        case .scalar:
            precondition(value.isScalar, "a scalar node holds \(value)")
        case .sequence(let items, _):
            precondition(value == .sequence(items.map(\.value)), "sequence value differs from its items")
            children = items
        case .mapping(let pairs, _):
            let keys = pairs.map(\.key)
            precondition(Set(keys).count == keys.count, "duplicate keys \(keys)")
            precondition(
                value == .mapping(YAMLMapping(pairs.map { .init(key: $0.key, value: $0.valueNode.value) })),
                "mapping value differs from its pairs")
            children = pairs.flatMap { [$0.keyNode, $0.valueNode] }
        }
        var previousEnd = range.lowerBound
        for child in children {
            precondition(child.range.lowerBound >= previousEnd, "child \(child.range) overlaps or precedes \(previousEnd)")
            precondition(child.range.upperBound <= range.upperBound, "child \(child.range) ends after its parent \(range)")
            previousEnd = child.range.upperBound
            child._checkInvariants()
        }
        #endif
    }
}
