/// Block collections: mappings and sequences laid out by indentation.
extension YAMLParser {
    func emptyNode(at mark: ParserMark) -> YAMLNode {
        YAMLNode(content: .scalar(text: "", style: .plain), value: .null, range: mark.pos..<mark.pos, start: location(mark))
    }

    /// The value of `key:` or `-` with nothing after it on the line: a node on the
    /// following lines indented more than `parentIndent`, or nothing.
    mutating func parseBlockNodeOnNextLines(parentIndent: Int, allowIndentlessSequence: Bool) throws(FormatError) -> YAMLNode {
        let before = mark
        try skipSpaceAndComments()
        if atEnd || atDocumentMarker() { return emptyNode(at: before) }
        let c = column
        if c > parentIndent {
            let tabbed = indentationHasTab
            if tabbed && leadingSpaces <= parentIndent { throw tabError() }
            return try parseBlockNodeHere(parentIndent: parentIndent, context: .lineStart, tabbed: tabbed)
        }
        if c == parentIndent && allowIndentlessSequence && cur == UInt8(ascii: "-") && isSpaceOrEnd(pos + 1) {
            return try parseBlockSequence()
        }
        return emptyNode(at: before)
    }

    /// A node starting at the current position. `tabbed`: tabs separate it from the
    /// line start or the `-` before it, which only a scalar or flow collection allows.
    mutating func parseBlockNodeHere(parentIndent: Int, context: Context, tabbed: Bool = false) throws(FormatError) -> YAMLNode {
        try refuseUnsupportedNodeStart(flow: false)
        let c = cur
        switch c {
        case UInt8(ascii: "-") where isSpaceOrEnd(pos + 1):
            if context == .afterKey {
                throw error(.syntax, "a list cannot start on the same line as its key; put each '- item' on a line of its own below the key")
            }
            if tabbed { throw tabError() }
            return try parseBlockSequence()
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try parseBlockScalar(parentIndent: parentIndent)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let node = try parseFlowCollection(parentIndent: parentIndent)
            skipBlanks()
            if cur == UInt8(ascii: ":") && (isSpaceOrEnd(pos + 1)) {
                throw complexKeyError()
            }
            try expectLineEnd()
            return node
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let startMark = mark
            let node = try parseQuotedScalar(parentIndent: parentIndent)
            skipBlanks()
            if cur == UInt8(ascii: ":") && isSpaceOrEnd(pos + 1) {
                if startMark.line != line {
                    throw error(.syntax, "a key must be on one line; join the quoted key's lines", at: startMark)
                }
                if context == .afterKey {
                    throw error(.mappingValueNotAllowed, "mapping values are not allowed here; quote the value if it contains ': '")
                }
                if tabbed { throw tabError() }
                return try parseBlockMapping(firstKey: node, keyMark: startMark)
            }
            try expectLineEnd()
            return node
        default:
            try checkPlainStart(flow: false)
            let startMark = mark
            let first = try scanPlainLine(flow: false)
            if cur == UInt8(ascii: ":") {
                if context == .afterKey {
                    throw error(.mappingValueNotAllowed, "mapping values are not allowed here; quote the value if it contains ': '")
                }
                if tabbed { throw tabError() }
                let key = plainNode(first, text: text(first), startMark: startMark)
                return try parseBlockMapping(firstKey: key, keyMark: startMark)
            }
            return try parsePlainContinuation(first: first, startMark: startMark, parentIndent: parentIndent, flow: false)
        }
    }

    /// A block mapping whose first key has been read; the position is at its ':'.
    mutating func parseBlockMapping(firstKey: YAMLNode, keyMark: ParserMark) throws(FormatError) -> YAMLNode {
        try enterCollection()
        defer { depth -= 1 }
        let indent = keyMark.pos - keyMark.lineStart
        var pairs: [YAMLPair] = []
        var seen = SeenKeys()
        var key = firstKey
        var currentKeyMark = keyMark
        var upper = firstKey.range.upperBound
        while true {
            let keyText = key.scalarText
            if let firstLine = seen.insert(keyText, line: currentKeyMark.line) {
                throw duplicateKeyError(keyText, firstLine: firstLine, at: currentKeyMark)
            }
            pos += 1  // ':'
            let afterColon = mark
            skipBlanks()
            let value: YAMLNode
            if atLineEnd || cur == UInt8(ascii: "#") {
                if cur == UInt8(ascii: "#") { skipComment() }
                value = try parseBlockNodeOnNextLines(parentIndent: indent, allowIndentlessSequence: true)
                if value.range.isEmpty && value.value == .null {
                    pairs.append(YAMLPair(keyNode: key, valueNode: emptyNode(at: afterColon)))
                    upper = max(upper, afterColon.pos)
                } else {
                    pairs.append(YAMLPair(keyNode: key, valueNode: value))
                    upper = max(upper, value.range.upperBound)
                }
            } else {
                value = try parseBlockNodeHere(parentIndent: indent, context: .afterKey)
                pairs.append(YAMLPair(keyNode: key, valueNode: value))
                upper = max(upper, value.range.upperBound)
            }
            guard try atNextEntry(indent: indent, of: "keys of its mapping") else { break }
            currentKeyMark = mark
            key = try parseImplicitKey()
        }
        let mapping = YAMLMapping(pairs.map { YAMLMapping.Entry(key: $0.key, value: $0.valueNode.value) })
        return YAMLNode(
            content: .mapping(pairs, style: .block), value: .mapping(mapping),
            range: firstKey.range.lowerBound..<upper, start: firstKey.start)
    }

    /// The key of a further mapping entry; leaves the position at its ':'.
    mutating func parseImplicitKey() throws(FormatError) -> YAMLNode {
        try refuseUnsupportedNodeStart(flow: false)
        let startMark = mark
        let key: YAMLNode
        switch cur {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            key = try parseQuotedScalar(parentIndent: column)
            if line != startMark.line {
                throw error(.syntax, "a key must be on one line; join the quoted key's lines", at: startMark)
            }
            skipBlanks()
        case UInt8(ascii: "-") where isSpaceOrEnd(pos + 1):
            throw error(.syntax, "expected 'key: value' at this indentation, found a list item; indent the list under its key or line it up with the items above")
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            throw complexKeyError()
        default:
            try checkPlainStart(flow: false)
            let range = try scanPlainLine(flow: false)
            key = plainNode(range, text: text(range), startMark: startMark)
        }
        guard cur == UInt8(ascii: ":") && isSpaceOrEnd(pos + 1) else {
            throw error(.syntax, "expected 'key: value': this line has no ':' after its key; add one, or indent the line if it continues the value above", at: startMark)
        }
        return key
    }

    /// A block sequence; the position is at its first '-'.
    mutating func parseBlockSequence() throws(FormatError) -> YAMLNode {
        try enterCollection()
        defer { depth -= 1 }
        let startMark = mark
        let indent = column
        var items: [YAMLNode] = []
        var upper = pos + 1
        while true {
            pos += 1  // '-'
            let afterDash = mark
            skipBlanks()
            let tabbed = indentationHasTab
            let item: YAMLNode
            if atLineEnd || cur == UInt8(ascii: "#") {
                if cur == UInt8(ascii: "#") { skipComment() }
                let next = try parseBlockNodeOnNextLines(parentIndent: indent, allowIndentlessSequence: false)
                item = next.range.isEmpty && next.value == .null ? emptyNode(at: afterDash) : next
            } else {
                item = try parseBlockNodeHere(parentIndent: indent, context: .afterDash, tabbed: tabbed)
            }
            items.append(item)
            upper = max(upper, item.range.upperBound)
            guard try atNextEntry(indent: indent, of: "items of its list") else { break }
            guard cur == UInt8(ascii: "-") && isSpaceOrEnd(pos + 1) else { break }
        }
        return YAMLNode(
            content: .sequence(items, style: .block), value: .sequence(items.map(\.value)),
            range: startMark.pos..<upper, start: location(startMark))
    }

    /// After an entry of a block collection at `indent`: skips to the next content and
    /// says whether it is at that indentation, where another entry may follow.
    mutating func atNextEntry(indent: Int, of entries: String) throws(FormatError) -> Bool {
        try skipSpaceAndComments()
        if atEnd || atDocumentMarker() { return false }
        let c = column
        if c < indent { return false }
        if indentationHasTab { throw tabError() }
        if c > indent {
            throw error(.badIndentation, "bad indentation: this line is indented more than the \(entries) (column \(indent + 1))")
        }
        return true
    }
}
