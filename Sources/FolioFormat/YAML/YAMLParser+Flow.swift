/// `[…]` and `{…}` collections, which may span lines.
extension YAMLParser {
    /// Skips blanks, comments and line breaks inside a flow collection, checking that
    /// continuation lines are indented more than the block around it.
    mutating func skipFlowSpace(parentIndent: Int, open: ParserMark) throws(FormatError) {
        let crossed = try skipSpaceAndComments()
        guard crossed && !atEnd else { return }
        if atDocumentMarker() { throw unterminatedFlow(open) }
        // Hugo's docs (and PyYAML, ruamel.yaml, Go's yaml) close a multi-line `[` or `{`
        // at its key's column: a closing bracket there is accepted; content is not.
        let closes = cur == UInt8(ascii: "]") || cur == UInt8(ascii: "}")
        if leadingSpaces < parentIndent || (leadingSpaces == parentIndent && !closes) {
            throw error(.badIndentation, "bad indentation: lines inside '\(Character(Unicode.Scalar(b[open.pos])))…' must be indented more than its key")
        }
    }

    func unterminatedFlow(_ open: ParserMark) -> FormatError {
        let isSequence = b[open.pos] == UInt8(ascii: "[")
        return error(
            .unterminatedFlowCollection,
            isSequence
                ? "unterminated flow sequence: add the closing ']' for this '['"
                : "unterminated flow mapping: add the closing '}' for this '{'",
            at: open)
    }

    mutating func parseFlowCollection(parentIndent: Int) throws(FormatError) -> YAMLNode {
        try enterCollection()
        defer { depth -= 1 }
        let open = mark
        let isSequence = cur == UInt8(ascii: "[")
        let close = isSequence ? UInt8(ascii: "]") : UInt8(ascii: "}")
        pos += 1
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var seen = SeenKeys()
        while true {
            try skipFlowSpace(parentIndent: parentIndent, open: open)
            if atEnd { throw unterminatedFlow(open) }
            if cur == close {
                pos += 1
                break
            }
            if cur == UInt8(ascii: ",") {
                throw error(.syntax, "expected a value before ','; remove the extra comma")
            }
            if cur == UInt8(ascii: "]") || cur == UInt8(ascii: "}") {
                throw error(.syntax, "'\(Character(Unicode.Scalar(cur)))' does not close this collection; expected '\(Character(Unicode.Scalar(close)))'")
            }
            let entryMark = mark
            let first = try parseFlowNode(parentIndent: parentIndent, open: open)
            try skipFlowSpace(parentIndent: parentIndent, open: open)
            let adjacentAllowed = first.scalarStyle == .doubleQuoted || first.scalarStyle == .singleQuoted
            let hasValue = cur == UInt8(ascii: ":")
                && (isSpaceOrEnd(pos + 1) || Self.isFlowIndicator(at(pos + 1)) || adjacentAllowed)
            if isSequence {
                if hasValue {
                    guard first.scalarStyle != nil else {
                        throw complexKeyError()
                    }
                    if entryMark.line != line {
                        throw error(.syntax, "a key must be on one line", at: entryMark)
                    }
                    let value = try parseFlowPairValue(parentIndent: parentIndent, open: open, close: close)
                    let pair = YAMLPair(keyNode: first, valueNode: value)
                    let upper = max(first.range.upperBound, value.range.upperBound)
                    items.append(
                        YAMLNode(
                            content: .mapping([pair], style: .flow),
                            value: .mapping(YAMLMapping([.init(key: pair.key, value: value.value)])),
                            range: first.range.lowerBound..<upper, start: first.start))
                } else {
                    items.append(first)
                }
            } else {
                guard first.scalarStyle != nil else {
                    throw complexKeyError()
                }
                let value: YAMLNode
                if hasValue {
                    value = try parseFlowPairValue(parentIndent: parentIndent, open: open, close: close)
                } else {
                    value = emptyNode(at: ParserMark(pos: first.range.upperBound, line: line, lineStart: lineStart))
                }
                let key = first.scalarText
                if let firstLine = seen.insert(key, line: entryMark.line) {
                    throw duplicateKeyError(key, firstLine: firstLine, at: entryMark)
                }
                pairs.append(YAMLPair(keyNode: first, valueNode: value))
            }
            try skipFlowSpace(parentIndent: parentIndent, open: open)
            if atEnd { throw unterminatedFlow(open) }
            if cur == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            if cur == close { continue }
            throw error(
                .syntax,
                "expected ',' or '\(Character(Unicode.Scalar(close)))' here; separate the items with commas, and quote values that contain ',' or brackets")
        }
        let range = open.pos..<pos
        if isSequence {
            return YAMLNode(
                content: .sequence(items, style: .flow), value: .sequence(items.map(\.value)), range: range,
                start: location(open))
        }
        let mapping = YAMLMapping(pairs.map { YAMLMapping.Entry(key: $0.key, value: $0.valueNode.value) })
        return YAMLNode(content: .mapping(pairs, style: .flow), value: .mapping(mapping), range: range, start: location(open))
    }

    /// After a key's ':' in a flow collection: the value, or null when none is written.
    mutating func parseFlowPairValue(parentIndent: Int, open: ParserMark, close: UInt8) throws(FormatError) -> YAMLNode {
        pos += 1  // ':'
        let afterColon = mark
        try skipFlowSpace(parentIndent: parentIndent, open: open)
        if cur == UInt8(ascii: ",") || cur == close { return emptyNode(at: afterColon) }
        return try parseFlowNode(parentIndent: parentIndent, open: open)
    }

    mutating func parseFlowNode(parentIndent: Int, open: ParserMark) throws(FormatError) -> YAMLNode {
        try refuseUnsupportedNodeStart(flow: true)
        switch cur {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            return try parseFlowCollection(parentIndent: parentIndent)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try parseQuotedScalar(parentIndent: parentIndent)
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            throw error(.syntax, "block scalars ('|' or '>') cannot be used inside '[…]' or '{…}'; use a quoted string")
        default:
            try checkPlainStart(flow: true)
            let startMark = mark
            let first = try scanPlainLine(flow: true)
            return try parsePlainContinuation(first: first, startMark: startMark, parentIndent: parentIndent, flow: true)
        }
    }
}
