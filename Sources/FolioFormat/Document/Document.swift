/// A Markdown file with optional YAML front matter, parsed without losing a byte.
///
/// A document is immutable: its ``bytes`` are exactly what was read, and edits
/// (see `Document+Editing.swift`) return a new document whose bytes differ from the
/// old ones only in the lines of what changed.
public struct Document: Sendable, Hashable {
    /// The file's bytes, exactly as read or as last edited.
    public let bytes: [UInt8]
    /// The file's name as the user gave it, for error messages.
    public let path: String?
    /// Where the BOM, the front matter and the body are.
    public let layout: FrontMatterLayout
    /// The parsed front matter (an empty tree when there is none).
    public let frontMatter: YAMLTree

    /// Parses a file's bytes.
    /// - Throws: ``FormatError`` for bytes that are not UTF-8, front matter that is not
    ///   closed, is not a mapping, or is not valid in Folio's YAML subset.
    public init(bytes: [UInt8], path: String? = nil) throws(FormatError) {
        let result: Result<(FrontMatterLayout, YAMLTree), FormatError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FormatError) in try Document.parse(buffer, path: path) }
        }
        let (layout, tree) = try result.get()
        self.bytes = bytes
        self.path = path
        self.layout = layout
        self.frontMatter = tree
    }

    /// Parses a file's text.
    public init(text: String, path: String? = nil) throws(FormatError) {
        try self.init(bytes: Array(text.utf8), path: path)
    }

    /// Parses a whole YAML file (such as `folio.yaml`) as a document that is all front
    /// matter and no body, so that the same minimal edits apply to it.
    public init(yamlBytes bytes: [UInt8], path: String? = nil) throws(FormatError) {
        let result: Result<(FrontMatterLayout, YAMLTree), FormatError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FormatError) in
                if let bad = UTF8Validation.firstInvalidOffset(in: buffer, range: 0..<buffer.count) {
                    throw YAML.invalidUTF8(buffer, at: bad, path: path)
                }
                let hasBOM = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
                let start = hasBOM ? 3 : 0
                let crlf = buffer[start...].firstIndex(of: 10).map { $0 > start && buffer[$0 - 1] == 13 } ?? false
                let layout = FrontMatterLayout(
                    hasBOM: hasBOM, lineEnding: crlf ? .crlf : .lf, opener: nil, yaml: start..<buffer.count, closer: nil,
                    body: buffer.count..<buffer.count)
                let tree = try YAML.parse(buffer, range: start..<buffer.count, firstLine: 1, path: path)
                if let root = tree.root, root.value != .null, root.value.mappingValue == nil {
                    throw FormatError(.frontMatterNotMapping, at: root.start, "this file must be 'key: value' lines", sourceLine: nil)
                }
                return (layout, tree)
            }
        }
        let (layout, tree) = try result.get()
        self.bytes = bytes
        self.path = path
        self.layout = layout
        self.frontMatter = tree
    }

    /// Validates and splits `buffer`, then parses its front matter.
    package static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, path: String?
    ) throws(FormatError) -> (FrontMatterLayout, YAMLTree) {
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer, range: 0..<buffer.count) {
            throw YAML.invalidUTF8(buffer, at: bad, path: path)
        }
        let layout = try FrontMatter.layout(of: buffer, path: path)
        guard let yaml = layout.yaml else { return (layout, YAMLTree(root: nil, comments: [])) }
        let tree: YAMLTree
        do { tree = try YAML.parse(buffer, range: yaml, firstLine: layout.yamlFirstLine, path: path) } catch {
            // git's conflict markers are said as what they are, not as the YAML they break.
            throw conflictMarkers(in: buffer, range: yaml, path: path) ?? error
        }
        if let root = tree.root, root.value != .null, root.value.mappingValue == nil {
            throw FormatError(
                .frontMatterNotMapping, at: root.start,
                "front matter must be 'key: value' lines, but this is \(root.value.kindDescription); add a key, e.g. 'tags:'",
                sourceLine: Document.line(containing: root.range.lowerBound, in: buffer))
        }
        return (layout, tree)
    }

    /// The front matter's fields in file order (empty without front matter).
    public var fields: YAMLMapping { frontMatter.value.mappingValue ?? YAMLMapping() }

    /// The value of a front-matter field.
    public subscript(key: String) -> YAMLValue? { fields[key] }

    /// The body: everything after the front matter.
    public var body: String { String(decoding: bytes[layout.body], as: UTF8.self) }

    /// The file's text, BOM included.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The root mapping node of the front matter, when it has one.
    public var frontMatterRoot: YAMLNode? {
        guard let root = frontMatter.root, root.value.mappingValue != nil else { return nil }
        return root
    }

    /// The error for the first line of `range` that is one of git's conflict markers
    /// (`<<<<<<<`, `=======`, `>>>>>>>` at a line's start), or nil when none is.
    static func conflictMarkers(in buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, path: String?) -> FormatError? {
        var start = range.lowerBound
        var line = 1
        for offset in 0..<range.lowerBound where buffer[offset] == 10 { line += 1 }
        while start < range.upperBound {
            var end = start
            while end < range.upperBound && buffer[end] != 10 { end += 1 }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
            for marker in ["<<<<<<<", "=======", ">>>>>>>"] where text.hasPrefix(marker) && (text.count == marker.count || text.dropFirst(marker.count).first == " " || text.dropFirst(marker.count).first == "\r") {
                return FormatError(
                    .syntax, at: SourceLocation(path: path, line: line, column: 1, offset: start),
                    "this file holds git's conflict markers (\(marker)): finish the merge — keep the lines you want, delete the marker lines, save — then run git add on it",
                    sourceLine: text)
            }
            start = end + 1
            line += 1
        }
        return nil
    }

    static func line(containing offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> String {
        var start = offset
        while start > 0 && buffer[start - 1] != 10 { start -= 1 }
        var end = offset
        while end < buffer.count && buffer[end] != 10 && buffer[end] != 13 { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }
}

extension YAMLValue {
    /// "a list", "a string", … for messages.
    var kindDescription: String {
        switch self {
        case .null: return "empty"
        case .bool: return "a boolean"
        case .int, .float: return "a number"
        case .string, .timestamp: return "a single value"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
