import FolioFormat
import FolioMerge

/// The check every fold passes before it is written: nothing either side changed
/// relative to the base is missing from the merge — a front-matter value changed on one
/// side only is that side's, an item either side added to a list is in the list, and a
/// line either side added to the body (or the text) is in it (compared without line
/// endings and list numbers, which merges rewrite).
package enum FoldInvariant {
    /// What the merge `merged` of `ours` and `theirs` over `base` dropped, or nil.
    package static func droppedChange(path: String, base: [UInt8], ours: [UInt8], theirs: [UInt8], merged: [UInt8]) -> String? {
        // Probes: versions that do not all parse are checked by their lines instead; a merge that does not parse is said below.
        if FileMerge.isDocument(path), let b = try? Document(bytes: base), let o = try? Document(bytes: ours),
           let t = try? Document(bytes: theirs) {
            guard let m = try? Document(bytes: merged) else { return "the front matter (the result does not parse)" }
            for (side, other) in [(o, t), (t, o)] {
                var keys = side.fields.keys
                for key in b.fields.keys where !keys.contains(key) { keys.append(key) }
                for key in keys where side[key] != b[key] {
                    if let problem = droppedValue(key, base: b[key], side: side[key], other: other[key], merged: m[key]) { return problem }
                }
            }
            return droppedLine(Array(b.bytes[b.layout.body]), [Array(o.bytes[o.layout.body]), Array(t.bytes[t.layout.body])], Array(m.bytes[m.layout.body]))
        }
        return droppedLine(base, [ours, theirs], merged)
    }

    package static func droppedValue(_ key: String, base: YAMLValue?, side: YAMLValue?, other: YAMLValue?, merged: YAMLValue?) -> String? {
        if case .sequence(let items)? = side {
            let baseItems = base?.sequenceValue ?? []
            let mergedItems = merged?.sequenceValue ?? []
            // An item of maps edited on one side may be merged field by field with the
            // other side's edit of it: then an item of that name is what must be there.
            func name(_ item: YAMLValue) -> YAMLValue? { item.mappingValue?["name"] }
            for item in items where !baseItems.contains(item) && !mergedItems.contains(item)
                && !(name(item) != nil && mergedItems.contains { name($0) == name(item) }) {
                return "the item \(ConflictFold.display(item)) of \(key)"
            }
            return nil
        }
        // Changed on this side only: the merge must hold this side's value.
        if other == base && merged != side { return "\(key): \(side.map(ConflictFold.display) ?? "removed")" }
        return nil
    }

    package static func droppedLine(_ base: [UInt8], _ sides: [[UInt8]], _ merged: [UInt8]) -> String? {
        let before = Set(lines(base)), after = Set(lines(merged))
        for side in sides {
            for line in lines(side) where !before.contains(line) && !after.contains(line) && !line.allSatisfy({ $0 == 32 || $0 == 9 }) {
                return "the line “\(String(decoding: line, as: UTF8.self))”"
            }
        }
        return nil
    }

    /// The lines of `bytes` without their endings, a Markdown list number or trailing blanks.
    package static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            var line = line
            while let last = line.last, last == 13 || last == 32 { line = line.dropLast() }
            // `  12. text` → `  text`.
            let indent = line.prefix { $0 == 32 || $0 == 9 }
            let rest = line.dropFirst(indent.count)
            let digits = rest.prefix { $0 >= 48 && $0 <= 57 }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == UInt8(ascii: "."), rest.dropFirst(digits.count + 1).first == 32 {
                return indent + rest.dropFirst(digits.count + 2)
            }
            return line
        }
    }
}
