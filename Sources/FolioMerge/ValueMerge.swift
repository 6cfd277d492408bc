import FolioFormat

/// The three-way merge of YAML values: mappings key by key, lists as lists (items
/// matched by identity — a map item by its `name`, a scalar by itself — additions from
/// both sides kept, removals honoured, an item changed on both sides merged field by
/// field), scalars whole. Nil means the values conflict.
enum ValueMerge {
    static func merge(base: YAMLValue?, ours: YAMLValue, theirs: YAMLValue) -> YAMLValue? {
        switch (ours, theirs) {
        case (.mapping(let o), .mapping(let t)):
            return mergeMappings(base: base?.mappingValue ?? YAMLMapping(), ours: o, theirs: t).map(YAMLValue.mapping)
        case (.sequence(let o), .sequence(let t)):
            return mergeLists(base: base?.sequenceValue ?? [], ours: o, theirs: t).map(YAMLValue.sequence)
        default:
            return nil
        }
    }

    static func mergeMappings(base: YAMLMapping, ours: YAMLMapping, theirs: YAMLMapping) -> YAMLMapping? {
        func units(_ mapping: YAMLMapping) -> [KeyedUnit<YAMLValue>] { mapping.entries.map { KeyedUnit(key: $0.key, content: $0.value) } }
        let merged = KeyedMerge.merge(base: units(base), ours: units(ours), theirs: units(theirs), bothChanged: merge)
        var out = YAMLMapping()
        for unit in merged {
            guard case .clean(let value) = unit.content else { return nil }
            out.entries.append(.init(key: unit.key, value: value))
        }
        return out
    }

    static func mergeLists(base: [YAMLValue], ours: [YAMLValue], theirs: [YAMLValue]) -> [YAMLValue]? {
        let merged = KeyedMerge.merge(base: units(base), ours: units(ours), theirs: units(theirs), alignReplacements: true, bothChanged: merge)
        var out: [YAMLValue] = []
        for unit in merged {
            guard case .clean(let value) = unit.content else { return nil }
            out.append(value)
        }
        return out
    }

    /// List items keyed by identity: a mapping by its `name` (or `title`), anything else by its value.
    static func units(_ items: [YAMLValue]) -> [KeyedUnit<YAMLValue>] {
        let keys = KeyedMerge.uniqueKeys(items.map(identity))
        return zip(keys, items).map { KeyedUnit(key: $0, content: $1) }
    }

    static func identity(_ item: YAMLValue) -> String {
        if let mapping = item.mappingValue, let name = (mapping["name"] ?? mapping["title"])?.stringValue {
            return "name:" + name.lowercased()
        }
        return "value:" + item.json(indent: nil)
    }
}
