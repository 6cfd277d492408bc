/// How a scalar was written.
public enum ScalarStyle: Sendable, Hashable {
    /// Unquoted.
    case plain
    /// `'…'`.
    case singleQuoted
    /// `"…"`.
    case doubleQuoted
    /// A `|` block scalar.
    case literal
    /// A `>` block scalar.
    case folded
}

/// How a collection was written.
public enum CollectionStyle: Sendable, Hashable {
    /// One entry per line, by indentation.
    case block
    /// `[a, b]` or `{k: v}`.
    case flow
}

/// A node of the parsed YAML tree, remembering where and how it was written.
///
/// The tree is immutable; edits produce new text (see ``Document``), which is
/// parsed again, so the tree always describes real bytes.
public struct YAMLNode: Sendable, Hashable {
    /// What the node holds.
    public enum Content: Sendable, Hashable {
        /// A scalar: its text after unquoting and folding, and its style.
        case scalar(text: String, style: ScalarStyle)
        /// A sequence and its items.
        case sequence([YAMLNode], style: CollectionStyle)
        /// A mapping and its pairs in order.
        case mapping([YAMLPair], style: CollectionStyle)
    }

    /// What the node holds.
    public let content: Content
    /// The node's resolved value.
    public let value: YAMLValue
    /// Byte offsets of the node's text in the file, from its first character to just
    /// past its last (comments and trailing blank lines excluded).
    public let range: Range<Int>
    /// Where the node starts.
    public let start: SourceLocation

    /// The items of a sequence node, else empty.
    public var items: [YAMLNode] {
        if case .sequence(let items, _) = content { return items }
        return []
    }

    /// The pairs of a mapping node, else empty.
    public var pairs: [YAMLPair] {
        if case .mapping(let pairs, _) = content { return pairs }
        return []
    }

    /// The pair whose key is `key`, in a mapping node.
    public func pair(forKey key: String) -> YAMLPair? {
        pairs.first { $0.key == key }
    }

    /// The collection style, or `nil` for scalars.
    public var collectionStyle: CollectionStyle? {
        switch content {
        case .scalar: return nil
        case .sequence(_, let style), .mapping(_, let style): return style
        }
    }

    /// The scalar style, or `nil` for collections.
    public var scalarStyle: ScalarStyle? {
        if case .scalar(_, let style) = content { return style }
        return nil
    }
}

/// A `key: value` pair of a mapping node.
public struct YAMLPair: Sendable, Hashable {
    /// The key node (always a scalar in Folio's subset).
    public let keyNode: YAMLNode
    /// The value node.
    public let valueNode: YAMLNode

    /// The pair's text, from the key to the end of the value.
    public var range: Range<Int> {
        keyNode.range.lowerBound..<max(keyNode.range.upperBound, valueNode.range.upperBound)
    }

    /// The key's text.
    public var key: String {
        if case .scalar(let text, _) = keyNode.content { return text }
        return ""
    }
}

/// A comment in the YAML text.
public struct YAMLComment: Sendable, Hashable {
    /// Byte offsets of the comment, from `#` to the end of its line.
    public let range: Range<Int>
    /// The comment's text after `#`.
    public let text: String
}

/// A parsed YAML document: its root node (absent when the text holds only comments
/// and blank lines), and its comments.
public struct YAMLTree: Sendable, Hashable {
    /// The root node.
    public let root: YAMLNode?
    /// Every comment, in order.
    public let comments: [YAMLComment]

    /// The root's value, or null for an empty document.
    public var value: YAMLValue { root?.value ?? .null }
}

extension YAMLNode {
    /// The text of a scalar node, or empty.
    var scalarText: String {
        if case .scalar(let text, _) = content { return text }
        return ""
    }
}
