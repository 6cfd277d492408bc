/// Parses the YAML subset that front matter uses into a ``YAMLTree``.
///
/// A hand-written recursive-descent parser over UTF-8 bytes. It works on a range of
/// a larger buffer (the front matter inside a Markdown file) so that every line and
/// column it reports is the file's own. What the subset leaves out (anchors, aliases,
/// tags, directives, complex keys, several documents) is refused with an error
/// saying so, never read as something else.
public enum YAML {
    /// The deepest nesting of collections Folio reads.
    public static let maximumDepth = 128
    /// The largest YAML text Folio reads, in bytes.
    public static let maximumSize = 8 << 20

    /// Parses YAML text.
    public static func parse(_ text: String, path: String? = nil) throws(FormatError) -> YAMLTree {
        try parse(bytes: Array(text.utf8), path: path)
    }

    /// Parses YAML bytes (an optional BOM first), checking that they are UTF-8.
    public static func parse(bytes: [UInt8], path: String? = nil) throws(FormatError) -> YAMLTree {
        let result: Result<YAMLTree, FormatError> = bytes.withUnsafeBufferPointer { buffer in
            if let bad = UTF8Validation.firstInvalidOffset(in: buffer, range: 0..<buffer.count) {
                return .failure(invalidUTF8(buffer, at: bad, path: path))
            }
            return Result { () throws(FormatError) in
                try parse(buffer, range: 0..<buffer.count, firstLine: 1, path: path)
            }
        }
        return try result.get()
    }

    /// Parses the YAML in `range` of `buffer`, whose first line is line `firstLine` of the file.
    /// The bytes must already be valid UTF-8.
    package static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, firstLine: Int, path: String?
    ) throws(FormatError) -> YAMLTree {
        var parser = YAMLParser(buffer: buffer, range: range, firstLine: firstLine, path: path)
        if range.count > maximumSize {
            throw parser.error(
                .limitExceeded,
                "the YAML is \(range.count) bytes; Folio reads at most \(maximumSize) bytes of YAML (front matter this large is almost certainly a mistake)")
        }
        return try parser.parseStream()
    }

    package static func invalidUTF8(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, path: String?) -> FormatError {
        var line = 1
        var lineStart = 0
        for i in 0..<offset where buffer[i] == 10 {
            line += 1
            lineStart = i + 1
        }
        let location = SourceLocation(
            path: path, line: line, column: YAMLParser.scalarColumn(buffer, lineStart: lineStart, offset: offset),
            offset: offset)
        return FormatError(
            .invalidUTF8, at: location,
            "invalid UTF-8 at byte offset \(offset) (byte 0x\(String(buffer[offset], radix: 16, uppercase: true))); save the file as UTF-8")
    }
}

/// Where the parser is: an offset, and the line it is on.
struct ParserMark {
    var pos: Int
    var line: Int
    var lineStart: Int
}

/// The parser's state. Lives only inside ``YAML/parse(_:range:firstLine:path:)``,
/// which owns the buffer it points into.
struct YAMLParser {
    /// Where a block node begins, which decides what it may be.
    enum Context {
        /// At the start of its own line.
        case lineStart
        /// After `- ` on the same line: compact nested collections are allowed.
        case afterDash
        /// After `key: ` or `--- ` on the same line: no block collection may start here.
        case afterKey
    }

    let b: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    let path: String?
    var pos: Int
    var line: Int
    var lineStart: Int
    var depth = 0
    var comments: [YAMLComment] = []

    init(buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, firstLine: Int, path: String?) {
        b = buffer
        start = range.lowerBound
        end = range.upperBound
        self.path = path
        pos = range.lowerBound
        line = firstLine
        lineStart = range.lowerBound
    }

    // MARK: - Characters

    @inline(__always) func at(_ i: Int) -> UInt8 { i < end ? b[i] : 0 }
    @inline(__always) var cur: UInt8 { pos < end ? b[pos] : 0 }
    @inline(__always) var atEnd: Bool { pos >= end }
    @inline(__always) var column: Int { pos - lineStart }
    @inline(__always) static func isBreak(_ c: UInt8) -> Bool { c == 10 || c == 13 }
    @inline(__always) static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 }
    @inline(__always) static func isFlowIndicator(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]")
            || c == UInt8(ascii: "{") || c == UInt8(ascii: "}")
    }
    /// Whether offset `i` is the end, a blank or a line break.
    @inline(__always) func isSpaceOrEnd(_ i: Int) -> Bool {
        i >= end || Self.isBlank(b[i]) || Self.isBreak(b[i])
    }
    @inline(__always) var atLineEnd: Bool { atEnd || Self.isBreak(cur) }

    var mark: ParserMark { ParserMark(pos: pos, line: line, lineStart: lineStart) }
    mutating func reset(_ mark: ParserMark) {
        pos = mark.pos
        line = mark.line
        lineStart = mark.lineStart
    }

    mutating func consumeBreak() {
        if cur == 13 {
            pos += 1
            if cur == 10 { pos += 1 }
        } else {
            pos += 1
        }
        line += 1
        lineStart = pos
    }

    mutating func skipBlanks() {
        while pos < end && Self.isBlank(b[pos]) { pos += 1 }
    }

    /// The number of spaces that begin the current line.
    var leadingSpaces: Int {
        var i = lineStart
        while i < end && b[i] == 32 { i += 1 }
        return i - lineStart
    }

    /// Whether the whitespace between the line start and `pos` holds a tab.
    var indentationHasTab: Bool {
        var i = lineStart
        while i < pos {
            if b[i] == 9 { return true }
            i += 1
        }
        return false
    }

    /// Whether a `---` or `...` marker starts at the current position (column 0).
    func atDocumentMarker(_ marker: UInt8? = nil) -> Bool {
        guard pos == lineStart, pos + 2 < end || pos + 3 == end else { return false }
        let c = b[pos]
        guard c == UInt8(ascii: "-") || c == UInt8(ascii: ".") else { return false }
        if let marker, c != marker { return false }
        return b[pos + 1] == c && b[pos + 2] == c && isSpaceOrEnd(pos + 3)
    }

    /// Skips blanks, comments and line breaks. Returns whether a line break was crossed.
    @discardableResult
    mutating func skipSpaceAndComments() throws(FormatError) -> Bool {
        var crossed = false
        while pos < end {
            let c = b[pos]
            if Self.isBlank(c) {
                pos += 1
            } else if Self.isBreak(c) {
                consumeBreak()
                crossed = true
            } else if c == UInt8(ascii: "#") {
                if pos > lineStart && !Self.isBlank(b[pos - 1]) {
                    throw error(.syntax, "a comment needs a space before '#'; add one, or quote the value if '#' belongs to it")
                }
                skipComment()
            } else {
                break
            }
        }
        return crossed
    }

    mutating func skipComment() {
        let commentStart = pos
        while pos < end && !Self.isBreak(b[pos]) { pos += 1 }
        comments.append(YAMLComment(range: commentStart..<pos, text: text(commentStart + 1..<pos)))
    }

    /// After a value on a line: only blanks and a comment may follow before the line ends.
    mutating func expectLineEnd() throws(FormatError) {
        skipBlanks()
        if atLineEnd { return }
        if cur == UInt8(ascii: "#") && Self.isBlank(b[pos - 1]) {
            skipComment()
            return
        }
        if cur == UInt8(ascii: ":") {
            throw error(.mappingValueNotAllowed, "mapping values are not allowed here; quote the value if it contains ': '")
        }
        throw error(.syntax, "unexpected text after the value; quote the whole value if it is one string")
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
    }

    // MARK: - Errors

    static func scalarColumn(_ b: UnsafeBufferPointer<UInt8>, lineStart: Int, offset: Int) -> Int {
        var column = 1
        var i = lineStart
        while i < offset && i < b.count {
            if b[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    func location(_ mark: ParserMark) -> SourceLocation {
        SourceLocation(
            path: path, line: mark.line, column: Self.scalarColumn(b, lineStart: mark.lineStart, offset: mark.pos),
            offset: mark.pos)
    }

    func error(_ kind: FormatError.Kind, _ message: String, at mark: ParserMark? = nil) -> FormatError {
        let mark = mark ?? self.mark
        var lineEnd = mark.lineStart
        while lineEnd < b.count && !Self.isBreak(b[lineEnd]) { lineEnd += 1 }
        let sourceLine = String(decoding: UnsafeBufferPointer(rebasing: b[mark.lineStart..<lineEnd]), as: UTF8.self)
        return FormatError(kind, at: location(mark), message, sourceLine: sourceLine)
    }

    func unsupported(_ what: String, _ advice: String) -> FormatError {
        error(.unsupported, "\(what) are not supported by Folio's YAML subset; \(advice)")
    }

    mutating func enterCollection() throws(FormatError) {
        depth += 1
        if depth > YAML.maximumDepth {
            throw error(
                .limitExceeded,
                "collections nested more than \(YAML.maximumDepth) levels deep; Folio refuses deeper nesting")
        }
    }

    // MARK: - Stream and document

    mutating func parseStream() throws(FormatError) -> YAMLTree {
        if pos + 2 < end && b[pos] == 0xEF && b[pos + 1] == 0xBB && b[pos + 2] == 0xBF {
            pos += 3
            lineStart = pos
        }
        try skipSpaceAndComments()
        if !atEnd && pos == lineStart && cur == UInt8(ascii: "%") {
            throw unsupported("directives ('%YAML', '%TAG')", "remove the line")
        }
        var root: YAMLNode?
        if atDocumentMarker(UInt8(ascii: "-")) {
            pos += 3
            skipBlanks()
            if atLineEnd || cur == UInt8(ascii: "#") {
                root = try parseBlockNodeOnNextLines(parentIndent: -1, allowIndentlessSequence: false)
            } else {
                root = try parseBlockNodeHere(parentIndent: -1, context: .afterKey)
            }
        } else if !atEnd && !atDocumentMarker() {
            root = try parseBlockNodeHere(parentIndent: -1, context: .lineStart, tabbed: indentationHasTab)
        }
        try skipSpaceAndComments()
        if atDocumentMarker(UInt8(ascii: ".")) {
            pos += 3
            try expectLineEnd()
            try skipSpaceAndComments()
            if !atEnd && !(pos == lineStart && cur == UInt8(ascii: "%")) {
                throw unsupported("several documents in one stream", "keep one document (one '---' block)")
            }
        }
        if !atEnd {
            if atDocumentMarker(UInt8(ascii: "-")) || (atDocumentMarker(UInt8(ascii: ".")) && root == nil) {
                throw unsupported("several documents in one stream", "keep one document (one '---' block)")
            }
            if pos == lineStart && cur == UInt8(ascii: "%") {
                throw unsupported("directives ('%YAML', '%TAG')", "remove the line")
            }
            if atDocumentMarker(UInt8(ascii: ".")) {
                throw unsupported("several documents in one stream", "keep one document")
            }
            throw error(.badIndentation, "unexpected content at this indentation; check that it lines up with the keys or items above it")
        }
        return YAMLTree(root: root, comments: comments)
    }

    /// A tab-indentation error pointing at the first tab of the current line's indentation.
    func tabError(at mark: ParserMark? = nil) -> FormatError {
        let mark = mark ?? self.mark
        var tab = mark.lineStart
        while tab < mark.pos && b[tab] != 9 { tab += 1 }
        return error(
            .tabIndentation, "tab character used for indentation; YAML indents with spaces only, so replace the tab with spaces",
            at: ParserMark(pos: tab, line: mark.line, lineStart: mark.lineStart))
    }

    // MARK: - Block nodes

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
        let c = cur
        switch c {
        case UInt8(ascii: "-") where isSpaceOrEnd(pos + 1):
            if context == .afterKey {
                throw error(.syntax, "a list cannot start on the same line as its key; put each '- item' on a line of its own below the key")
            }
            if tabbed { throw tabError() }
            return try parseBlockSequence()
        case UInt8(ascii: "?") where isSpaceOrEnd(pos + 1):
            throw unsupported("explicit keys ('? key')", "write 'key: value'")
        case UInt8(ascii: ":") where isSpaceOrEnd(pos + 1):
            throw unsupported("empty keys (': value')", "give the value a key")
        case UInt8(ascii: "&"):
            throw unsupported("anchors ('&name')", "write the value out in full")
        case UInt8(ascii: "*"):
            throw unsupported("aliases ('*name')", "write the value out in full")
        case UInt8(ascii: "!"):
            throw unsupported("tags ('!tag')", "remove the tag; quote the value if it should be a string")
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try parseBlockScalar(parentIndent: parentIndent)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let node = try parseFlowCollection(parentIndent: parentIndent)
            skipBlanks()
            if cur == UInt8(ascii: ":") && (isSpaceOrEnd(pos + 1)) {
                throw unsupported("complex keys (a list or mapping used as a key)", "use a plain string as the key")
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
        var seen: [String: Int] = [:]
        var key = firstKey
        var currentKeyMark = keyMark
        var upper = firstKey.range.upperBound
        while true {
            let keyText = key.scalarText
            if let firstLine = seen[keyText] {
                throw error(
                    .duplicateKey,
                    "duplicate key '\(keyText)' (first defined on line \(firstLine)); remove one of them",
                    at: currentKeyMark)
            }
            seen[keyText] = currentKeyMark.line
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
            try skipSpaceAndComments()
            if atEnd || atDocumentMarker() { break }
            let c = column
            if c < indent { break }
            if indentationHasTab { throw tabError() }
            if c > indent {
                throw error(.badIndentation, "bad indentation: this line is indented more than the keys of its mapping (column \(indent + 1))")
            }
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
        case UInt8(ascii: "?") where isSpaceOrEnd(pos + 1):
            throw unsupported("explicit keys ('? key')", "write 'key: value'")
        case UInt8(ascii: ":") where isSpaceOrEnd(pos + 1):
            throw unsupported("empty keys (': value')", "give the value a key")
        case UInt8(ascii: "&"):
            throw unsupported("anchors ('&name')", "write the value out in full")
        case UInt8(ascii: "*"):
            throw unsupported("aliases ('*name')", "write the value out in full")
        case UInt8(ascii: "!"):
            throw unsupported("tags ('!tag')", "remove the tag")
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            throw unsupported("complex keys (a list or mapping used as a key)", "use a plain string as the key")
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
            try skipSpaceAndComments()
            if atEnd || atDocumentMarker() { break }
            let c = column
            if c < indent { break }
            if indentationHasTab { throw tabError() }
            if c > indent {
                throw error(.badIndentation, "bad indentation: this line is indented more than the items of its list (column \(indent + 1))")
            }
            guard cur == UInt8(ascii: "-") && isSpaceOrEnd(pos + 1) else { break }
        }
        return YAMLNode(
            content: .sequence(items, style: .block), value: .sequence(items.map(\.value)),
            range: startMark.pos..<upper, start: location(startMark))
    }

    // MARK: - Plain scalars

    /// Refuses characters that cannot start a plain scalar.
    func checkPlainStart(flow: Bool) throws(FormatError) {
        let c = cur
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            let next = at(pos + 1)
            if isSpaceOrEnd(pos + 1) || (flow && Self.isFlowIndicator(next)) {
                throw error(.syntax, "'\(Character(Unicode.Scalar(c)))' cannot start a value here; quote the value")
            }
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
             UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
             UInt8(ascii: "`"):
            throw error(.syntax, "'\(Character(Unicode.Scalar(c)))' cannot start a plain value; quote the value")
        default:
            break
        }
    }

    /// Scans one line of a plain scalar; returns its text's range without trailing blanks.
    /// Stops at a line break, a comment, a ':' that ends a key, or (in flow) an indicator.
    mutating func scanPlainLine(flow: Bool) throws(FormatError) -> Range<Int> {
        let first = pos
        var lastNonBlank = pos
        while pos < end {
            let c = b[pos]
            if c == 10 || c == 13 { break }
            if c == UInt8(ascii: ":") {
                let next = at(pos + 1)
                if isSpaceOrEnd(pos + 1) || (flow && Self.isFlowIndicator(next)) { break }
            } else if c == UInt8(ascii: "#") {
                if pos > first && Self.isBlank(b[pos - 1]) { break }
            } else if flow && Self.isFlowIndicator(c) {
                break
            } else if c < 0x20 && c != 9 || c == 0x7F {
                throw error(.syntax, "control character U+\(String(c, radix: 16, uppercase: true)) is not allowed in YAML text; remove it")
            }
            pos += 1
            if !Self.isBlank(c) { lastNonBlank = pos }
        }
        return first..<lastNonBlank
    }

    func plainNode(_ range: Range<Int>, text: String, startMark: ParserMark) -> YAMLNode {
        let value = ScalarResolver.resolvePlain(bytes: UnsafeBufferPointer(rebasing: b[range]), text: text)
        return YAMLNode(content: .scalar(text: text, style: .plain), value: value, range: range, start: location(startMark))
    }

    /// Continues a plain scalar over following lines indented more than `parentIndent`,
    /// folding line breaks the YAML way.
    mutating func parsePlainContinuation(
        first: Range<Int>, startMark: ParserMark, parentIndent: Int, flow: Bool
    ) throws(FormatError) -> YAMLNode {
        var folded: [UInt8]?
        var upper = first.upperBound
        while !atEnd && Self.isBreak(cur) {
            let save = mark
            var breaks = 0
            while !atEnd && Self.isBreak(cur) {
                consumeBreak()
                breaks += 1
                skipBlanks()
            }
            if atEnd || cur == UInt8(ascii: "#") || atDocumentMarker() || leadingSpaces <= parentIndent
                || (flow && (Self.isFlowIndicator(cur) || (cur == UInt8(ascii: ":") && (isSpaceOrEnd(pos + 1) || Self.isFlowIndicator(at(pos + 1))))))
            {
                reset(save)
                break
            }
            let lineRange = try scanPlainLine(flow: flow)
            if !flow && cur == UInt8(ascii: ":") {
                throw error(.mappingValueNotAllowed, "mapping values are not allowed here; a key must be on one line, or quote the value if it contains ': '")
            }
            if folded == nil { folded = Array(b[first]) }
            if breaks == 1 {
                folded!.append(32)
            } else {
                folded!.append(contentsOf: repeatElement(10, count: breaks - 1))
            }
            folded!.append(contentsOf: b[lineRange])
            upper = lineRange.upperBound
            if cur == UInt8(ascii: "#") { break }
        }
        guard let folded else {
            return plainNode(first, text: text(first), startMark: startMark)
        }
        let scalarText = String(decoding: folded, as: UTF8.self)
        let value = folded.withUnsafeBufferPointer { ScalarResolver.resolvePlain(bytes: $0, text: scalarText) }
        return YAMLNode(
            content: .scalar(text: scalarText, style: .plain), value: value, range: first.lowerBound..<upper,
            start: location(startMark))
    }

    // MARK: - Quoted scalars

    /// A single- or double-quoted scalar; multi-line ones fold like plain scalars.
    mutating func parseQuotedScalar(parentIndent: Int) throws(FormatError) -> YAMLNode {
        let startMark = mark
        let quote = cur
        let double = quote == UInt8(ascii: "\"")
        pos += 1
        let contentStart = pos
        // Fast path: one line, no escapes.
        while pos < end {
            let c = b[pos]
            if c == quote {
                if !double && at(pos + 1) == quote { break }
                let range = contentStart..<pos
                pos += 1
                return YAMLNode(
                    content: .scalar(text: text(range), style: double ? .doubleQuoted : .singleQuoted),
                    value: .string(text(range)), range: startMark.pos..<pos, start: location(startMark))
            }
            if c == UInt8(ascii: "\\") && double { break }
            if Self.isBreak(c) || Self.isBlank(c) || c < 0x20 { break }
            pos += 1
        }
        var out = Array(b[contentStart..<pos])
        while true {
            guard pos < end else { throw unterminatedQuote(double, startMark) }
            let c = b[pos]
            if c == quote {
                if !double && at(pos + 1) == quote {
                    out.append(quote)
                    pos += 2
                    continue
                }
                pos += 1
                break
            }
            if double && c == UInt8(ascii: "\\") {
                if Self.isBreak(at(pos + 1)) {
                    pos += 1
                    consumeBreak()
                    try skipQuotedContinuationIndent(parentIndent: parentIndent, double: double, startMark: startMark, escaped: true)
                    continue
                }
                try appendEscape(into: &out)
                continue
            }
            if Self.isBlank(c) || Self.isBreak(c) {
                let blanksStart = pos
                skipBlanks()
                if atEnd { throw unterminatedQuote(double, startMark) }
                if !Self.isBreak(cur) {
                    out.append(contentsOf: b[blanksStart..<pos])
                    continue
                }
                // Trailing blanks before a break are dropped; the break folds.
                var breaks = 0
                while !atEnd && Self.isBreak(cur) {
                    consumeBreak()
                    breaks += 1
                    try skipQuotedContinuationIndent(parentIndent: parentIndent, double: double, startMark: startMark, escaped: false)
                }
                if breaks == 1 {
                    out.append(32)
                } else {
                    out.append(contentsOf: repeatElement(10, count: breaks - 1))
                }
                continue
            }
            if c < 0x20 || c == 0x7F {
                throw error(.syntax, "control character U+\(String(c, radix: 16, uppercase: true)) is not allowed in a quoted string; write it as an escape such as \\t")
            }
            out.append(c)
            pos += 1
        }
        let scalarText = String(decoding: out, as: UTF8.self)
        return YAMLNode(
            content: .scalar(text: scalarText, style: double ? .doubleQuoted : .singleQuoted),
            value: .string(scalarText), range: startMark.pos..<pos, start: location(startMark))
    }

    func unterminatedQuote(_ double: Bool, _ startMark: ParserMark) -> FormatError {
        let quote = double ? "\"" : "'"
        return error(
            .unterminatedQuote,
            "unterminated \(double ? "double" : "single")-quoted string: add the closing \(quote)",
            at: startMark)
    }

    /// At the start of a quoted scalar's continuation line: skips its indentation and checks it.
    mutating func skipQuotedContinuationIndent(
        parentIndent: Int, double: Bool, startMark: ParserMark, escaped: Bool
    ) throws(FormatError) {
        if atDocumentMarker() { throw unterminatedQuote(double, startMark) }
        skipBlanks()
        if atEnd { throw unterminatedQuote(double, startMark) }
        if Self.isBreak(cur) { return }
        if leadingSpaces <= parentIndent {
            // Most often the closing quote is missing; say so at the opening quote.
            let quote = double ? "\"" : "'"
            throw error(
                .unterminatedQuote,
                "unterminated \(double ? "double" : "single")-quoted string: add the closing \(quote) (a quoted string goes on to the next line only when that line is indented more than its key)",
                at: startMark)
        }
    }

    mutating func appendEscape(into out: inout [UInt8]) throws(FormatError) {
        let escapeMark = mark
        let c = at(pos + 1)
        pos += 2
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "0"): simple = 0
        case UInt8(ascii: "a"): simple = 7
        case UInt8(ascii: "b"): simple = 8
        case UInt8(ascii: "t"), 9: simple = 9
        case UInt8(ascii: "n"): simple = 10
        case UInt8(ascii: "v"): simple = 11
        case UInt8(ascii: "f"): simple = 12
        case UInt8(ascii: "r"): simple = 13
        case UInt8(ascii: "e"): simple = 27
        case 32: simple = 32
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        default: simple = nil
        }
        if let simple {
            out.append(simple)
            return
        }
        let scalar: Unicode.Scalar?
        switch c {
        case UInt8(ascii: "N"): scalar = "\u{85}"
        case UInt8(ascii: "_"): scalar = "\u{A0}"
        case UInt8(ascii: "L"): scalar = "\u{2028}"
        case UInt8(ascii: "P"): scalar = "\u{2029}"
        case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = c == UInt8(ascii: "x") ? 2 : c == UInt8(ascii: "u") ? 4 : 8
            guard pos + count <= end else { throw badEscape(escapeMark) }
            let hex = text(pos..<pos + count)
            guard hex.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }),
                  let code = UInt32(hex, radix: 16), let s = Unicode.Scalar(code)
            else { throw badEscape(escapeMark) }
            pos += count
            scalar = s
        default:
            throw badEscape(escapeMark)
        }
        if let scalar { out.append(contentsOf: Array(String(Character(scalar)).utf8)) }
    }

    func badEscape(_ mark: ParserMark) -> FormatError {
        error(.syntax, "invalid escape sequence in a double-quoted string; write '\\\\' for a backslash", at: mark)
    }

    // MARK: - Block scalars

    /// A `|` or `>` block scalar, with chomping and indentation indicators.
    mutating func parseBlockScalar(parentIndent: Int) throws(FormatError) -> YAMLNode {
        let startMark = mark
        let folded = cur == UInt8(ascii: ">")
        pos += 1
        enum Chomping { case strip, clip, keep }
        var chomping = Chomping.clip
        var indicator: Int?
        var sawChomp = false
        for _ in 0..<2 {
            let c = cur
            if (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")) && !sawChomp {
                chomping = c == UInt8(ascii: "+") ? .keep : .strip
                sawChomp = true
                pos += 1
            } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") && indicator == nil {
                indicator = Int(c - 48)
                pos += 1
            } else if c == UInt8(ascii: "0") {
                throw error(.syntax, "a block scalar's indentation indicator must be 1 to 9")
            }
        }
        let headerEnd = pos
        skipBlanks()
        if cur == UInt8(ascii: "#") {
            if pos == headerEnd { throw error(.syntax, "a comment needs a space before '#'") }
            skipComment()
        }
        if !atLineEnd {
            throw error(.syntax, "invalid block scalar header: after '|' or '>' only '+', '-', a digit 1-9 and a comment may follow; start the text on the next line")
        }
        var upper = headerEnd
        if !atEnd { consumeBreak() }
        var indent: Int
        if let indicator {
            indent = max(parentIndent, 0) + indicator
        } else {
            // Auto-detect from the first non-empty line.
            let save = mark
            var maxEmpty = 0
            var maxEmptyMark = mark
            indent = parentIndent + 1
            while !atEnd {
                let spacesStart = pos
                while !atEnd && cur == 32 { pos += 1 }
                let spaces = pos - spacesStart
                if atLineEnd {
                    if spaces > maxEmpty { maxEmpty = spaces; maxEmptyMark = ParserMark(pos: spacesStart, line: line, lineStart: lineStart) }
                    if atEnd { break }
                    consumeBreak()
                    continue
                }
                indent = max(spaces, parentIndent + 1)
                break
            }
            if atEnd { indent = max(maxEmpty, parentIndent + 1) }
            if maxEmpty > indent && !atEnd {
                throw error(.badIndentation, "a leading blank line of this block scalar has more spaces than its first line of text; remove the extra spaces", at: maxEmptyMark)
            }
            reset(save)
        }
        if indent < 0 { indent = 0 }
        var out: [UInt8] = []
        var leadingBreak = false
        var trailingBreaks = 0
        var leadingBlank = false
        var lastBreakStart = headerEnd
        while true {
            // Indentation and empty lines.
            while true {
                while column < indent && cur == 32 { pos += 1 }
                if !atEnd && Self.isBreak(cur) {
                    trailingBreaks += 1
                    lastBreakStart = pos
                    consumeBreak()
                    continue
                }
                if !atEnd && column < indent && cur == 9 {
                    // A tab where indentation was expected.
                    let save = mark
                    skipBlanks()
                    if atLineEnd { throw tabError(at: mark) }
                    reset(save)
                }
                if atEnd && pos > lineStart && lineStart > headerEnd {
                    // Blanks at the end of the input end an empty line, as if a line break followed.
                    trailingBreaks += 1
                }
                break
            }
            if atEnd || column < indent || atDocumentMarker() {
                // Give back the indentation of the line that ends the scalar.
                if lineStart > headerEnd { pos = lineStart }
                break
            }
            let trailingBlank = Self.isBlank(cur)
            if folded && leadingBreak && !leadingBlank && !trailingBlank {
                if trailingBreaks == 0 { out.append(32) }
                leadingBreak = false
            } else if leadingBreak {
                out.append(10)
                leadingBreak = false
            }
            out.append(contentsOf: repeatElement(10, count: trailingBreaks))
            trailingBreaks = 0
            leadingBlank = trailingBlank
            let contentStart = pos
            while pos < end && !Self.isBreak(b[pos]) {
                let c = b[pos]
                if c < 0x20 && c != 9 || c == 0x7F {
                    throw error(.syntax, "control character U+\(String(c, radix: 16, uppercase: true)) is not allowed in YAML text; remove it")
                }
                pos += 1
            }
            out.append(contentsOf: b[contentStart..<pos])
            upper = pos
            if atEnd {
                // The end of the input ends the last line, as if a line break followed.
                leadingBreak = true
                break
            }
            lastBreakStart = pos
            consumeBreak()
            leadingBreak = true
        }
        if chomping != .strip && leadingBreak { out.append(10) }
        if chomping == .keep {
            out.append(contentsOf: repeatElement(10, count: trailingBreaks))
            if trailingBreaks > 0 { upper = max(upper, lastBreakStart) }
        }
        let scalarText = String(decoding: out, as: UTF8.self)
        return YAMLNode(
            content: .scalar(text: scalarText, style: folded ? .folded : .literal), value: .string(scalarText),
            range: startMark.pos..<upper, start: location(startMark))
    }

    // MARK: - Flow collections

    /// Skips blanks, comments and line breaks inside a flow collection, checking that
    /// continuation lines are indented more than the block around it.
    mutating func skipFlowSpace(parentIndent: Int, open: ParserMark) throws(FormatError) {
        while true {
            let crossed = try skipSpaceAndComments()
            if atEnd { return }
            if crossed {
                if atDocumentMarker() { throw unterminatedFlow(open) }
                if leadingSpaces <= parentIndent {
                    throw error(.badIndentation, "bad indentation: lines inside '\(Character(Unicode.Scalar(b[open.pos])))…' must be indented more than its key")
                }
            }
            return
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
        var seen: [String: Int] = [:]
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
            if cur == UInt8(ascii: "?") && (isSpaceOrEnd(pos + 1) || Self.isFlowIndicator(at(pos + 1))) {
                throw unsupported("explicit keys ('? key')", "write 'key: value'")
            }
            let isEmptyKey = cur == UInt8(ascii: ":") && (isSpaceOrEnd(pos + 1) || Self.isFlowIndicator(at(pos + 1)))
            if isEmptyKey { throw unsupported("empty keys (': value')", "give the value a key") }
            let first = try parseFlowNode(parentIndent: parentIndent, open: open)
            try skipFlowSpace(parentIndent: parentIndent, open: open)
            let adjacentAllowed = first.scalarStyle == .doubleQuoted || first.scalarStyle == .singleQuoted
            let hasValue = cur == UInt8(ascii: ":")
                && (isSpaceOrEnd(pos + 1) || Self.isFlowIndicator(at(pos + 1)) || adjacentAllowed)
            if isSequence {
                if hasValue {
                    guard first.scalarStyle != nil else {
                        throw unsupported("complex keys (a list or mapping used as a key)", "use a plain string as the key")
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
                    throw unsupported("complex keys (a list or mapping used as a key)", "use a plain string as the key")
                }
                let value: YAMLNode
                if hasValue {
                    value = try parseFlowPairValue(parentIndent: parentIndent, open: open, close: close)
                } else {
                    value = emptyNode(at: ParserMark(pos: first.range.upperBound, line: line, lineStart: lineStart))
                }
                let key = first.scalarText
                if let firstLine = seen[key] {
                    throw error(.duplicateKey, "duplicate key '\(key)' (first defined on line \(firstLine)); remove one of them", at: entryMark)
                }
                seen[key] = entryMark.line
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
        switch cur {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            return try parseFlowCollection(parentIndent: parentIndent)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try parseQuotedScalar(parentIndent: parentIndent)
        case UInt8(ascii: "&"):
            throw unsupported("anchors ('&name')", "write the value out in full")
        case UInt8(ascii: "*"):
            throw unsupported("aliases ('*name')", "write the value out in full")
        case UInt8(ascii: "!"):
            throw unsupported("tags ('!tag')", "remove the tag")
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

extension YAMLNode {
    /// The text of a scalar node, or empty.
    var scalarText: String {
        if case .scalar(let text, _) = content { return text }
        return ""
    }
}
