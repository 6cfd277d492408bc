import FolioFormat

/// Decodes a `Decodable` value from front matter, reading scalars as the typed views do
/// (``YAMLValue/intValue``, ``YAMLValue/boolValue``…): `rating: "9"` is an `Int`,
/// `finished: no` a `false`, a date a ``CalendarDate``. A missing key or `null` is nil
/// for an optional property.
public struct YAMLValueDecoder: Sendable {
    /// A decoder.
    public init() {}

    /// `T` read from `value` (a mapping, for a struct).
    public func decode<T: Decodable>(_ type: T.Type, from value: YAMLValue) throws -> T {
        try T(from: NodeDecoder(value: value, codingPath: []))
    }
}

/// The decoder of one node.
private struct NodeDecoder: Decoder {
    let value: YAMLValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = value else { throw mismatch(YAMLMapping.self, "a mapping of fields") }
        return KeyedDecodingContainer(Keyed<Key>(mapping: mapping, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .sequence(let items): return Unkeyed(items: items, codingPath: codingPath)
        case .null: return Unkeyed(items: [], codingPath: codingPath)
        // A single value where a list is expected is a list of one (`tags: pasta`).
        default: return Unkeyed(items: [value], codingPath: codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.summary)"))
    }
}

/// A scalar read as a typed view reads it.
private struct Single: SingleValueDecodingContainer {
    let value: YAMLValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func typed<T>(_ read: T?, _ type: T.Type, _ expected: String) throws -> T {
        guard let read else {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.summary)"))
        }
        return read
    }

    func decode(_ type: Bool.Type) throws -> Bool { try typed(value.boolValue, type, "yes or no") }
    func decode(_ type: String.Type) throws -> String { try typed(value.text, type, "text") }
    func decode(_ type: Double.Type) throws -> Double { try typed(value.doubleValue, type, "a number") }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try typed(value.intValue, type, "a whole number") }
    func decode(_ type: Int8.Type) throws -> Int8 { try narrow(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try narrow(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try narrow(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try narrow(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try narrow(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try narrow(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try narrow(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try narrow(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try narrow(type) }

    func narrow<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try typed(value.intValue.flatMap { T(exactly: $0) }, type, "a whole number from \(T.min) to \(T.max)")
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: NodeDecoder(value: value, codingPath: codingPath))
    }
}

/// A mapping's fields by key.
private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let mapping: YAMLMapping
    let codingPath: [any CodingKey]

    var allKeys: [Key] { mapping.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { mapping[key.stringValue] != nil }

    func value(_ key: Key) throws -> YAMLValue {
        guard let value = mapping[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no '\(key.stringValue):' field"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { (mapping[key.stringValue] ?? .null) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Single(value: try value(key), codingPath: codingPath + [key]).decode(type)
    }

    // The integer and other scalar overloads go through the generic one, which routes
    // each standard type to the single-value container's typed read.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Single(value: try value(key), codingPath: codingPath + [key]).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Single(value: try value(key), codingPath: codingPath + [key]).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Single(value: try value(key), codingPath: codingPath + [key]).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Single(value: try value(key), codingPath: codingPath + [key]).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try NodeDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { NodeDecoder(value: .mapping(mapping), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { NodeDecoder(value: try value(key), codingPath: codingPath + [key]) }
}

/// A list's items in order.
private struct Unkeyed: UnkeyedDecodingContainer {
    let items: [YAMLValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [YAMLValue], codingPath: [any CodingKey]) { (self.items, self.codingPath) = (items, codingPath) }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> (YAMLValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(YAMLValue.self, .init(codingPath: codingPath, debugDescription: "the list has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [ListIndex(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try Single(value: value, codingPath: path).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try NodeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try NodeDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return NodeDecoder(value: value, codingPath: path)
    }
}

/// A list item's place in a coding path.
struct ListIndex: CodingKey {
    var intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

extension YAMLValue {
    /// What a value is, for an error: `text 'nine'`, `a list`.
    var summary: String {
        switch self {
        case .null: "nothing"
        case .bool(let flag): "'\(flag)'"
        case .int(let number): "'\(number)'"
        case .float(let number): "'\(YAMLEmitter.floatText(number))'"
        case .string(let text), .timestamp(let text): "'\(text)'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}
