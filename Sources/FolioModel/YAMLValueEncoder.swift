import FolioFormat

/// Encodes an `Encodable` value as front matter: a struct as a mapping in the order its
/// properties encode, numbers as numbers, `Bool` as `true`/`false`, a date as
/// `YYYY-MM-DD`; an optional that is nil is left out.
public struct YAMLValueEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// `value` as a YAML value.
    public func encode<T: Encodable>(_ value: T) throws -> YAMLValue {
        let root = Slot()
        try value.encode(to: NodeEncoder(slot: root, codingPath: []))
        return root.value
    }
}

/// Where one node's value is built. A class, as Swift's encoding containers are handed
/// out by value and write into their node later.
private final class Slot {
    enum Content {
        case empty
        case scalar(YAMLValue)
        case mapping([(String, Slot)])
        case sequence([Slot])
    }

    var content = Content.empty

    var value: YAMLValue {
        switch content {
        case .empty: .null
        case .scalar(let value): value
        case .mapping(let entries): .mapping(YAMLMapping(entries.map { .init(key: $0.0, value: $0.1.value) }))
        case .sequence(let items): .sequence(items.map(\.value))
        }
    }

    /// The slot for `key` in this mapping (made a mapping if it was empty).
    func child(_ key: String) -> Slot {
        var entries: [(String, Slot)] = []
        if case .mapping(let existing) = content { entries = existing }
        if let found = entries.first(where: { $0.0 == key }) { return found.1 }
        let slot = Slot()
        entries.append((key, slot))
        content = .mapping(entries)
        return slot
    }

    /// A new last item of this sequence (made a sequence if it was empty).
    func appended() -> Slot {
        var items: [Slot] = []
        if case .sequence(let existing) = content { items = existing }
        let slot = Slot()
        items.append(slot)
        content = .sequence(items)
        return slot
    }

    func makeMapping() { if case .empty = content { content = .mapping([]) } }
    func makeSequence() { if case .empty = content { content = .sequence([]) } }
}

private struct NodeEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeMapping()
        return KeyedEncodingContainer(KeyedEncoder<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeSequence()
        return UnkeyedEncoder(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleEncoder(slot: slot, codingPath: codingPath) }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    func encodeNil() { slot.content = .scalar(.null) }
    func encode(_ value: Bool) { slot.content = .scalar(.bool(value)) }
    func encode(_ value: String) { slot.content = .scalar(.string(value)) }
    func encode(_ value: Double) { slot.content = .scalar(Self.number(value)) }
    func encode(_ value: Float) { slot.content = .scalar(Self.number(Double(value))) }

    /// A whole number as one (`15`, as a person writes it, not `15.0`), exactly while
    /// a `Double` holds every whole number (below 2^53); anything else as a float. It
    /// reads back as the same `Double`.
    static func number(_ value: Double) -> YAMLValue {
        value == value.rounded() && abs(value) < 9_007_199_254_740_992 ? .int(Int(value)) : .float(value)
    }
    func encode(_ value: Int) { slot.content = .scalar(.int(value)) }
    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: slot, codingPath) }
}

/// `value` into `slot`: a date as front matter writes one (a plain `2026-11-30`, not a
/// quoted string), anything else as it encodes itself.
private func encodeValue<T: Encodable>(_ value: T, into slot: Slot, _ codingPath: [any CodingKey]) throws {
    if let date = value as? CalendarDate {
        slot.content = .scalar(.timestamp(date.description))
        return
    }
    try value.encode(to: NodeEncoder(slot: slot, codingPath: codingPath))
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) { slot.child(key.stringValue).content = .scalar(.null) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: slot.child(key.stringValue), codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superEncoder() -> any Encoder { NodeEncoder(slot: slot.child("super"), codingPath: codingPath) }
    func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key]) }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    var count: Int {
        if case .sequence(let items) = slot.content { return items.count }
        return 0
    }

    func encodeNil() { slot.appended().content = .scalar(.null) }

    func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try encodeValue(value, into: slot.appended(), codingPath + [ListIndex(intValue: index)])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(slot: slot.appended(), codingPath: codingPath + [ListIndex(intValue: count)]).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(slot: slot.appended(), codingPath: codingPath + [ListIndex(intValue: count)]).unkeyedContainer()
    }

    func superEncoder() -> any Encoder { NodeEncoder(slot: slot.appended(), codingPath: codingPath + [ListIndex(intValue: count)]) }
}
