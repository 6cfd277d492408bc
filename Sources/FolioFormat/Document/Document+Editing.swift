/// Minimal edits: each changes only the lines of the key or list item it touches.
/// Comments, key order, quoting, indentation, line endings and the body stay as
/// they were. Every edit parses its result again before returning it, so an edit
/// never yields a document Folio could not read back.
extension Document {
    /// Creates a new document with canonical front matter (see ``YAMLEmitter``) and `body`.
    public init(fields: YAMLMapping, body: String, lineEnding: FrontMatterLayout.LineEnding = .lf, path: String? = nil)
        throws(FormatError)
    {
        var text = ""
        if !fields.isEmpty {
            text = "---" + lineEnding.rawValue + YAMLEmitter.document(.mapping(fields), lineEnding: lineEnding) + "---"
                + lineEnding.rawValue
        }
        try self.init(bytes: Array((text + body).utf8), path: path)
    }

    // MARK: - Keys

    /// Sets a front-matter field, adding it after the last field when it is new.
    /// An existing field keeps its key text, its place and, for scalars, its quoting style.
    public mutating func setValue(_ value: YAMLValue, forKey key: String) throws(FormatError) {
        self = try settingValue(value, forKey: key)
    }

    /// Removes a front-matter field and only its lines (or, in a `{…}` front matter,
    /// its text and one comma). Does nothing when there is no such field.
    public mutating func removeValue(forKey key: String) throws(FormatError) {
        guard let root = frontMatterRoot, let index = root.pairs.firstIndex(where: { $0.key == key }) else { return }
        let pair = root.pairs[index]
        if root.collectionStyle == .flow {
            self = try replacing(flowRemovalRange(root.pairs.map(\.range), index), with: "")
        } else {
            self = try replacing(lineStart(pair.keyNode.range.lowerBound)..<lineEndIncludingBreak(pair.range.upperBound), with: "")
        }
    }

    /// A copy with a front-matter field set.
    public func settingValue(_ value: YAMLValue, forKey key: String) throws(FormatError) -> Document {
        guard let yaml = layout.yaml else {
            let entry = YAMLEmitter.entryLines(key: YAMLEmitter.keyText(key), value: value, indent: 0)
            let text = "---" + eol + joined(entry) + "---" + eol
            return try replacing(layout.body.lowerBound..<layout.body.lowerBound, with: text)
        }
        guard let root = frontMatterRoot else {
            let entry = YAMLEmitter.entryLines(key: YAMLEmitter.keyText(key), value: value, indent: 0)
            return try replacing(yaml.upperBound..<yaml.upperBound, with: lineBreakNeeded(at: yaml.upperBound) + joined(entry))
        }
        let flow = root.collectionStyle == .flow
        guard let pair = root.pair(forKey: key) else {
            if flow {
                let entry = YAMLEmitter.stringText(key, flow: true) + ": " + YAMLEmitter.flowText(value)
                guard let last = root.pairs.last else {
                    return try replacing(root.range.lowerBound + 1..<root.range.lowerBound + 1, with: entry)
                }
                return try replacing(last.range.upperBound..<last.range.upperBound, with: ", " + entry)
            }
            let indent = root.range.lowerBound - lineStart(root.range.lowerBound)
            let entry = YAMLEmitter.entryLines(key: YAMLEmitter.keyText(key), value: value, indent: indent)
            let at = lineEndIncludingBreak(root.range.upperBound)
            return try replacing(at..<at, with: lineBreakNeeded(at: at) + joined(entry))
        }
        let node = pair.valueNode
        if node.value == value { return self }
        if let text = inlineReplacement(for: node, with: value, flow: flow) {
            var prefix = ""
            if node.range.isEmpty && !text.isEmpty {
                prefix = node.range.lowerBound > 0 && bytes[node.range.lowerBound - 1] == UInt8(ascii: ":") ? " " : ": "
            }
            return try replacing(node.range, with: prefix + text)
        }
        let indent = pair.keyNode.range.lowerBound - lineStart(pair.keyNode.range.lowerBound)
        let keyText = String(decoding: bytes[pair.keyNode.range], as: UTF8.self)
        var lines = YAMLEmitter.entryLines(key: keyText, value: value, indent: indent)
        lines[0] = String(lines[0].dropFirst(indent))
        return try replacing(pair.keyNode.range.lowerBound..<lineEnd(node.range.upperBound), with: lines.joined(separator: eol))
    }

    // MARK: - List items

    /// Appends an item to the list under `key`, after its last item and in its style.
    /// A missing or empty field becomes a one-item list; a single value becomes a
    /// list of that value and the item.
    public mutating func appendItem(_ item: YAMLValue, toListForKey key: String) throws(FormatError) {
        guard let node = frontMatterRoot?.pair(forKey: key)?.valueNode, node.value != .null else {
            return try setValue(.sequence([item]), forKey: key)
        }
        switch node.content {
        case .sequence(_, style: .block):
            let at = lineEndIncludingBreak(node.range.upperBound)
            let indent = node.range.lowerBound - lineStart(node.range.lowerBound)
            self = try replacing(at..<at, with: joined(YAMLEmitter.sequenceItemLines(item, indent: indent)))
        case .sequence(let items, style: .flow):
            let text = YAMLEmitter.flowText(item)
            if let last = items.last {
                self = try replacing(last.range.upperBound..<last.range.upperBound, with: ", " + text)
            } else {
                let at = node.range.lowerBound + 1
                self = try replacing(at..<at, with: text)
            }
        case .scalar:
            try setValue(.sequence([node.value, item]), forKey: key)
        case .mapping:
            throw editError("'\(key)' holds a mapping, not a list; it has no items to append to")
        }
    }

    /// Removes the item at `index` from the list under `key`, and only its lines
    /// (or, in a `[…]` list, its text and one comma).
    public mutating func removeItem(at index: Int, fromListForKey key: String) throws(FormatError) {
        let (items, style) = try list(forKey: key, index: index)
        if items.count == 1 { return try setValue(.sequence([]), forKey: key) }
        let item = items[index]
        if style == .block {
            self = try replacing(lineStart(item.range.lowerBound)..<lineEndIncludingBreak(item.range.upperBound), with: "")
        } else {
            self = try replacing(flowRemovalRange(items.map(\.range), index), with: "")
        }
    }

    /// Replaces the item at `index` of the list under `key`, keeping a scalar's quoting style.
    public mutating func setItem(_ item: YAMLValue, at index: Int, inListForKey key: String) throws(FormatError) {
        let (items, style) = try list(forKey: key, index: index)
        let old = items[index]
        if old.value == item { return }
        if let text = inlineReplacement(for: old, with: item, flow: style == .flow), !old.range.isEmpty {
            self = try replacing(old.range, with: text)
        } else if style == .flow {
            self = try replacing(old.range, with: YAMLEmitter.flowText(item))
        } else {
            let start = lineStart(old.range.lowerBound)
            var dash = start
            while bytes[dash] == 32 { dash += 1 }
            var lines = YAMLEmitter.sequenceItemLines(item, indent: dash - start)
            lines[0] = String(lines[0].dropFirst(dash - start))
            self = try replacing(dash..<lineEnd(old.range.upperBound), with: lines.joined(separator: eol))
        }
    }

    // MARK: - Body

    /// Replaces the body, leaving the BOM and front matter bytes as they are.
    public mutating func setBody(_ body: String) throws(FormatError) {
        self = try replacing(layout.body, with: body)
    }

    /// Replaces the bytes in `range`, which must lie within the body (as a section's
    /// lines do), with `text`; line breaks in `text` are written in the file's style.
    public mutating func replaceBody(_ range: Range<Int>, with text: String) throws(FormatError) {
        guard range.lowerBound >= layout.body.lowerBound && range.upperBound <= layout.body.upperBound else {
            throw editError("the range \(range) is not inside the body")
        }
        let converted = layout.lineEnding == .crlf ? text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") : text
        self = try replacing(range, with: converted)
    }

    // MARK: - Helpers

    /// In a `[…]` or `{…}` collection, the text that removing entry `index` removes:
    /// the entry and the comma after it (or, for the last entry, the comma before it).
    private func flowRemovalRange(_ entries: [Range<Int>], _ index: Int) -> Range<Int> {
        if index + 1 < entries.count { return entries[index].lowerBound..<entries[index + 1].lowerBound }
        if index > 0 { return entries[index - 1].upperBound..<entries[index].upperBound }
        return entries[index]
    }

    private func list(forKey key: String, index: Int) throws(FormatError) -> ([YAMLNode], CollectionStyle) {
        guard let node = frontMatterRoot?.pair(forKey: key)?.valueNode,
              case .sequence(let items, let style) = node.content
        else { throw editError("'\(key)' is not a list") }
        guard items.indices.contains(index) else {
            throw editError("'\(key)' has \(items.count) item\(items.count == 1 ? "" : "s"); there is no item \(index)")
        }
        return (items, style)
    }

    /// One-line text that can replace `node`'s range, or nil when the new value needs lines of its own.
    private func inlineReplacement(for node: YAMLNode, with value: YAMLValue, flow: Bool) -> String? {
        if flow {
            if case .string(let text) = value, let styled = styledString(text, like: node, flow: true) { return styled }
            return YAMLEmitter.flowText(value)
        }
        if node.value != .null && bytes[node.range].contains(10) { return nil }
        switch value {
        case .sequence, .mapping:
            guard node.collectionStyle == .flow || (node.value == .null && value.isEmptyCollection),
                  let text = YAMLEmitter.flowText(value, width: value.isEmptyCollection ? nil : YAMLEmitter.flowWidth)
            else { return nil }
            return text
        case .null:
            return node.value == .null ? "" : (node.scalarStyle == nil ? nil : "null")
        case .string(let text) where YAMLEmitter.blockScalarLines(value, indent: 0) == nil:
            return styledString(text, like: node, flow: false)
        case .string:
            return nil
        default:
            return node.scalarStyle == .plain || node.scalarStyle == .singleQuoted || node.scalarStyle == .doubleQuoted
                ? YAMLEmitter.inlineText(value, flow: flow) : nil
        }
    }

    /// A string in the quoting style of the scalar it replaces, where that style can hold it.
    private func styledString(_ text: String, like node: YAMLNode, flow: Bool) -> String? {
        switch node.scalarStyle {
        case .doubleQuoted?: return YAMLEmitter.doubleQuoted(text)
        case .singleQuoted? where YAMLEmitter.isPrintable(text, allowingNewlines: false) && !text.contains("\t"):
            return "'" + text.replacingAll("'", with: "''") + "'"
        case .plain?, .singleQuoted?: return YAMLEmitter.stringText(text, flow: flow)
        default: return nil
        }
    }

    private var eol: String { layout.lineEnding.rawValue }

    /// A line break when `offset` is after a last line that has none (a YAML file), else nothing.
    private func lineBreakNeeded(at offset: Int) -> String {
        offset > 0 && offset == bytes.count && bytes[offset - 1] != 10 ? eol : ""
    }

    private func joined(_ lines: [String]) -> String { lines.map { $0 + eol }.joined() }

    func lineStart(_ offset: Int) -> Int {
        var i = offset
        while i > 0 && bytes[i - 1] != 10 { i -= 1 }
        return i
    }

    /// The offset of the line break (or end) after `offset`, before any `\r`.
    func lineEnd(_ offset: Int) -> Int {
        var i = offset
        while i < bytes.count && bytes[i] != 10 { i += 1 }
        return i > offset && bytes[i - 1] == 13 ? i - 1 : i
    }

    /// The offset just past the line break after `offset`.
    func lineEndIncludingBreak(_ offset: Int) -> Int {
        var i = offset
        while i < bytes.count && bytes[i] != 10 { i += 1 }
        return min(i + 1, bytes.count)
    }

    private func editError(_ message: String) -> FormatError {
        FormatError(.invalidEdit, at: SourceLocation(path: path, line: 1, column: 1, offset: 0), message)
    }

    /// The document with `range` replaced by `text`, parsed again.
    private func replacing(_ range: Range<Int>, with text: String) throws(FormatError) -> Document {
        var newBytes = bytes
        newBytes.replaceSubrange(range, with: Array(text.utf8))
        do {
            return layout.opener == nil && layout.yaml != nil
                ? try Document(yamlBytes: newBytes, path: path) : try Document(bytes: newBytes, path: path)
        } catch {
            throw FormatError(
                .invalidEdit, at: error.location,
                "this edit would leave the file unreadable (\(error.message)); the file was not changed",
                sourceLine: error.sourceLine)
        }
    }
}

extension YAMLValue {
    var isEmptyCollection: Bool {
        switch self {
        case .sequence(let items): return items.isEmpty
        case .mapping(let mapping): return mapping.isEmpty
        default: return false
        }
    }
}
