import FolioFormat

extension DocumentMerge {
    /// A top-level front-matter key's lines (from its line to the next key's line,
    /// comments and blank lines after it included) and its value; `merged` holds the
    /// value of a list or map both sides changed, written in afterwards.
    struct Block: Equatable {
        var bytes: [UInt8]
        var value: YAMLValue?
        var merged: YAMLValue?

        static func == (a: Block, b: Block) -> Bool { a.bytes == b.bytes && a.merged == b.merged }
    }

    static let preambleKey = "\u{1}preamble"

    /// The front matter's key blocks, the lines before the first key as a preamble.
    static func blocks(_ document: Document) -> [KeyedUnit<Block>] {
        guard let yaml = document.layout.yaml, !yaml.isEmpty else { return [] }
        let bytes = document.bytes
        func lineStart(_ offset: Int) -> Int {
            var i = offset
            while i > yaml.lowerBound && bytes[i - 1] != 10 { i -= 1 }
            return i
        }
        let pairs = document.frontMatter.root?.pairs ?? []
        var units: [KeyedUnit<Block>] = []
        let starts = pairs.map { lineStart($0.keyNode.range.lowerBound) }
        let firstStart = starts.first ?? yaml.upperBound
        if firstStart > yaml.lowerBound {
            units.append(KeyedUnit(key: preambleKey, content: Block(bytes: Array(bytes[yaml.lowerBound..<firstStart]), value: nil)))
        }
        for (index, pair) in pairs.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : yaml.upperBound
            units.append(KeyedUnit(key: pair.key, content: Block(bytes: Array(bytes[starts[index]..<end]), value: pair.valueNode.value)))
        }
        return units
    }

    /// Front matter merged key by key: pieces to write, the merged fields (to check
    /// the written result against), and the lists or maps to write in as values.
    static func mergeFrontMatter(base: Document, ours: Document, theirs: Document)
        throws -> (pieces: [Piece], fields: YAMLMapping, edits: [(key: String, value: YAMLValue)])
    {
        let ending = Array(ours.layout.lineEnding.rawValue.utf8)
        let merged = KeyedMerge.merge(base: blocks(base), ours: blocks(ours), theirs: blocks(theirs)) { b, o, t in
            if let ov = o.value, let tv = t.value, let value = ValueMerge.merge(base: b?.value, ours: ov, theirs: tv) {
                return Block(bytes: o.bytes, value: ov, merged: value)
            }
            guard let b else { return nil }
            return restyledWithValue(base: b, ours: o, theirs: t, ending: ending) ?? linesMerged(base: b, ours: o, theirs: t, ending: ending)
        }
        var pieces: [Piece] = []
        var fields = YAMLMapping()
        var edits: [(key: String, value: YAMLValue)] = []
        for unit in merged {
            switch unit.content {
            case .clean(let block):
                pieces.append(.clean(withLineBreak(block.bytes, ending: ours.layout.lineEnding)))
                if unit.key != preambleKey, let value = block.merged ?? block.value {
                    fields.entries.append(.init(key: unit.key, value: value))
                }
                if let value = block.merged { edits.append((unit.key, value)) }
            case .conflict(let o, let b, let t):
                pieces.append(.conflict(ours: o?.bytes ?? [], base: b?.bytes ?? [], theirs: t?.bytes ?? []))
            }
        }
        return (pieces, fields, edits)
    }

    /// A key one side only wrote differently (a comment, quotes, another style: the same
    /// value) while the other changed its value: the new value, written the first side's
    /// way. Nil when both changed the value, or when the value cannot be written in.
    static func restyledWithValue(base: Block, ours: Block, theirs: Block, ending: [UInt8]) -> Block? {
        guard let value = base.value else { return nil }
        let (restyled, changed): (Block, Block)
        if ours.value == value && theirs.value != value {
            (restyled, changed) = (ours, theirs)
        } else if theirs.value == value && ours.value != value {
            (restyled, changed) = (theirs, ours)
        } else {
            return nil
        }
        guard let newValue = changed.value, var document = standalone(restyled.bytes, ending: ending),
              let key = document.fields.entries.first?.key,
              // A probe: a value the key cannot take means "no restyled block", and the caller keeps the line merge.
              (try? document.setValue(newValue, forKey: key)) != nil
        else { return nil }
        return block(of: document, ending: ending)
    }

    /// A key both sides changed that did not merge as a value — a scalar written over
    /// several lines (a `|` or `>` block, a quoted string that wraps), or a map holding
    /// one: its lines merged as `git merge-file` merges a file's, so that edits of
    /// different lines both stay (and lines both sides added at one place, ours first),
    /// with the value's indentation and chomping as written.
    /// Nil when the lines clash (always, for two edits of one line), and for a value that
    /// holds a list: the value merge refused it for a reason (two versions of one item)
    /// that a line merge would not see.
    static func linesMerged(base: Block, ours: Block, theirs: Block, ending: [UInt8]) -> Block? {
        guard ![base.value, ours.value, theirs.value].contains(where: { $0.map(holdsList) ?? true }) else { return nil }
        // A line each side appended to a `|` block is two lines more, not a clash.
        let text = TextMerge.merge(base: base.bytes, ours: ours.bytes, theirs: theirs.bytes, keepingBothAdditions: true)
        guard text.conflicts == 0, let document = standalone(text.bytes, ending: ending), document.fields.entries.count == 1 else { return nil }
        return block(of: document, ending: ending)
    }

    /// Whether `value` is or holds a list.
    static func holdsList(_ value: YAMLValue) -> Bool {
        switch value {
        case .sequence: true
        case .mapping(let map): map.entries.contains { holdsList($0.value) }
        default: false
        }
    }

    /// One key's lines read as a front matter of their own.
    static func standalone(_ bytes: [UInt8], ending: [UInt8]) -> Document? {
        // A probe: lines that do not read as a front matter of their own are nil, and the caller keeps them as lines.
        try? Document(bytes: Array("---".utf8) + ending + withLineBreak(bytes, ending: ending) + Array("---".utf8) + ending)
    }

    /// The key block of a front matter made by ``standalone(_:ending:)``.
    static func block(of document: Document, ending: [UInt8]) -> Block? {
        guard let yaml = document.layout.yaml, let value = document.fields.entries.first?.value else { return nil }
        return Block(bytes: Array(document.bytes[yaml]), value: value)
    }

    /// `bytes` ending in a line break (a block that was last may lack one).
    static func withLineBreak(_ bytes: [UInt8], ending: FrontMatterLayout.LineEnding) -> [UInt8] {
        withLineBreak(bytes, ending: Array(ending.rawValue.utf8))
    }

    static func withLineBreak(_ bytes: [UInt8], ending: [UInt8]) -> [UInt8] {
        bytes.isEmpty || bytes.last == 10 ? bytes : bytes + ending
    }

    /// Writes a merged list or map into `document` with the fewest edits: items
    /// removed, changed in place and appended when that is what the merge did, else
    /// the whole value (in the key's own place and style).
    static func apply(_ value: YAMLValue, forKey key: String, to document: inout Document) throws {
        guard case .sequence(let merged) = value, case .sequence(let current)? = document[key] else {
            try document.setValue(value, forKey: key)
            return
        }
        let currentKeys = ValueMerge.units(current).map(\.key)
        let mergedKeys = ValueMerge.units(merged).map(\.key)
        let kept = mergedKeys.filter(currentKeys.contains)
        let appended = mergedKeys.filter { !currentKeys.contains($0) }
        guard mergedKeys == kept + appended, kept == currentKeys.filter(kept.contains) else {
            try document.setValue(value, forKey: key)
            return
        }
        for (index, itemKey) in currentKeys.enumerated().reversed() where !kept.contains(itemKey) {
            try document.removeItem(at: index, fromListForKey: key)
        }
        for (index, itemKey) in kept.enumerated() {
            let new = merged[mergedKeys.firstIndex(of: itemKey)!]
            if current[currentKeys.firstIndex(of: itemKey)!] != new { try document.setItem(new, at: index, inListForKey: key) }
        }
        for itemKey in appended { try document.appendItem(merged[mergedKeys.firstIndex(of: itemKey)!], toListForKey: key) }
    }
}
