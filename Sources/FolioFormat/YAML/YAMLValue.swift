/// The data a YAML node holds, resolved by the YAML 1.2 core schema.
///
/// Plain scalars that read as ISO 8601 dates stay text (``timestamp``), so the
/// author's text is kept and a date is typed only when asked for.
public enum YAMLValue: Sendable, Hashable {
    /// `null`, `~` or nothing.
    case null
    /// `true` or `false` in any of the core schema's spellings.
    case bool(Bool)
    /// A decimal, `0o` octal or `0x` hexadecimal integer.
    case int(Int)
    /// A decimal float, `.inf`, `-.inf` or `.nan`.
    case float(Double)
    /// Any other scalar.
    case string(String)
    /// A plain scalar written as an ISO 8601 date or date-time, kept as its text.
    case timestamp(String)
    /// A list.
    case sequence([YAMLValue])
    /// Keys and values in their order in the file.
    case mapping(YAMLMapping)
}

/// An ordered mapping from string keys to values, as written in a file.
public struct YAMLMapping: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One `key: value` pair.
    public struct Entry: Sendable, Hashable {
        /// The key's text.
        public var key: String
        /// The value.
        public var value: YAMLValue
        /// Creates an entry.
        public init(key: String, value: YAMLValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in their order in the file.
    public var entries: [Entry]

    /// Creates a mapping from entries in order.
    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// The pairs of `dictionary`, by key (a dictionary has no order of its own): where an
    /// app holds its fields as `[String: YAMLValue]`.
    public init(_ dictionary: [String: YAMLValue]) {
        self.init(dictionary.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value) })
    }

    /// The pairs as a dictionary (a key written twice: its last value).
    public var dictionary: [String: YAMLValue] { Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) }

    /// Creates a mapping from key-value pairs in order.
    public init(dictionaryLiteral elements: (String, YAMLValue)...) {
        self.entries = elements.map { Entry(key: $0.0, value: $0.1) }
    }

    /// The index of the first entry.
    public var startIndex: Int { entries.startIndex }
    /// The index past the last entry.
    public var endIndex: Int { entries.endIndex }
    /// The entry at `position`.
    public subscript(position: Int) -> Entry { entries[position] }

    /// The keys in order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for `key`, or `nil` when the mapping has no such key.
    public subscript(key: String) -> YAMLValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }
}

extension YAMLValue {
    /// The string of a string or timestamp scalar.
    public var stringValue: String? {
        switch self {
        case .string(let text), .timestamp(let text): return text
        default: return nil
        }
    }

    /// The entries of a list of scalars as text, or a lone scalar's text as a list of
    /// one: a setting that takes one or several (`conflictCopies: icloud` or a list).
    package var scalarTexts: [String] {
        switch self {
        case .sequence(let entries): return entries.compactMap(\.scalarText)
        case .mapping, .null: return []
        default: return scalarText.map { [$0] } ?? []
        }
    }

    /// A scalar's text as written for a person (a string as it is, a number or a truth value spelled).
    private var scalarText: String? {
        switch self {
        case .string(let text), .timestamp(let text): return text
        case .int(let number): return String(number)
        case .float(let number): return String(number)
        case .bool(let truth): return truth ? "true" : "false"
        case .null, .sequence, .mapping: return nil
        }
    }

    /// The mapping of a mapping node.
    public var mappingValue: YAMLMapping? {
        if case .mapping(let mapping) = self { return mapping }
        return nil
    }

    /// The items of a sequence node.
    public var sequenceValue: [YAMLValue]? {
        if case .sequence(let items) = self { return items }
        return nil
    }

    /// Whether this is a scalar rather than a collection.
    public var isScalar: Bool {
        switch self {
        case .sequence, .mapping: return false
        default: return true
        }
    }
}
