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
        let merged = KeyedMerge.merge(base: blocks(base), ours: blocks(ours), theirs: blocks(theirs)) { b, o, t in
            guard let ov = o.value, let tv = t.value, let value = ValueMerge.merge(base: b?.value, ours: ov, theirs: tv) else { return nil }
            return Block(bytes: o.bytes, value: ov, merged: value)
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

    /// `bytes` ending in a line break (a block that was last may lack one).
    static func withLineBreak(_ bytes: [UInt8], ending: FrontMatterLayout.LineEnding) -> [UInt8] {
        bytes.isEmpty || bytes.last == 10 ? bytes : bytes + Array(ending.rawValue.utf8)
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
