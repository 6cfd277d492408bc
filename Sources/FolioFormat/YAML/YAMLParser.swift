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

/// The keys seen so far in one mapping, with the line of each, for duplicate checks.
/// Linear while small (front matter mappings are), hashed beyond that.
struct SeenKeys {
    private var small: [(key: String, line: Int)] = []
    private var large: [String: Int]?

    /// Records `key` on `line`; returns the line of an earlier occurrence instead when there is one.
    mutating func insert(_ key: String, line: Int) -> Int? {
        if large == nil {
            if let earlier = small.first(where: { $0.key == key }) { return earlier.line }
            small.append((key, line))
            if small.count > 16 { large = Dictionary(small.map { ($0.key, $0.line) }, uniquingKeysWith: { a, _ in a }) }
            return nil
        }
        if let earlier = large![key] { return earlier }
        large![key] = line
        return nil
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

    func duplicateKeyError(_ key: String, firstLine: Int, at mark: ParserMark) -> FormatError {
        error(.duplicateKey, "duplicate key '\(key)' (first defined on line \(firstLine)); remove one of them", at: mark)
    }

    func complexKeyError() -> FormatError {
        unsupported("complex keys (a list or mapping used as a key)", "use a plain string as the key")
    }

    /// Refuses, where a node or key starts, what Folio's subset leaves out:
    /// anchors, aliases, tags, explicit `?` keys and empty `:` keys.
    func refuseUnsupportedNodeStart(flow: Bool) throws(FormatError) {
        let separated = isSpaceOrEnd(pos + 1) || (flow && Self.isFlowIndicator(at(pos + 1)))
        switch cur {
        case UInt8(ascii: "&"): throw unsupported("anchors ('&name')", "write the value out in full")
        case UInt8(ascii: "*"): throw unsupported("aliases ('*name')", "write the value out in full")
        case UInt8(ascii: "!"): throw unsupported("tags ('!tag')", "remove the tag; quote the value if it should be a string")
        case UInt8(ascii: "?") where separated: throw unsupported("explicit keys ('? key')", "write 'key: value'")
        case UInt8(ascii: ":") where separated: throw unsupported("empty keys (': value')", "give the value a key")
        default: return
        }
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
}
