import FolioFormat
import FolioMerge

/// Folding a conflict copy into its file: a three-way merge against the chosen base,
/// accepted only when it is clean and keeps every change either side made. Pure: the
/// bytes depend only on (path, base, file, copy), so every device that folds the same
/// copy writes the same result and the sync tool settles.
package enum ConflictFold {
    /// What folding a copy into its file gives.
    package enum Outcome: Sendable, Equatable {
        /// The copy holds what the file holds: it can simply go.
        case identical
        /// The merged file.
        case merged([UInt8])
        /// The two sides clash; the text says where (`time (20m | 25m)`).
        case conflict(String)
        /// Nothing Folio knows can serve as their common ancestor.
        case noBase
        /// A side is not text.
        case notText
    }

    /// Folds `copy` into `file` (the file at `path`) against `base` (nil: none found).
    /// A base equal to one side makes the merge take the other side whole; that is
    /// right only for a base the history proves (`exactBase`: the lowest common
    /// ancestor, where one side simply descends from the other), never for a guess.
    package static func fold(path: String, base: [UInt8]?, file: [UInt8], copy: [UInt8], exactBase: Bool = false) -> Outcome {
        if file == copy { return .identical }
        guard isText(file), isText(copy) else { return .notText }
        guard let base, isText(base), exactBase || (base != file && base != copy) else { return .noBase }
        let result = FileMerge.merge(path: path, base: base, ours: file, theirs: copy)
        guard result.conflicts == 0 else { return .conflict(clash(path: path, base: base, ours: file, theirs: copy)) }
        if let dropped = FoldInvariant.droppedChange(path: path, base: base, ours: file, theirs: copy, merged: result.bytes) {
            return .conflict("the merge would drop \(dropped)")
        }
        return .merged(result.bytes)
    }

    static func isText(_ bytes: [UInt8]) -> Bool { !bytes.prefix(8000).contains(0) }

    /// Whether `bytes` hold conflict markers as git and `folio merge-file` write them (a
    /// line starting `<<<<<<<` and one starting `>>>>>>>`): such a file is never a fold's
    /// input, a base or a version to restore.
    package static func hasConflictMarkers(_ bytes: [UInt8]) -> Bool {
        var opening = false
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
            let line = bytes[start..<end]
            if line.starts(with: Self.opening) { opening = true } else if opening && line.starts(with: Self.closing) { return true }
            start = end + 1
        }
        return false
    }

    private static let opening = Array("<<<<<<<".utf8), closing = Array(">>>>>>>".utf8)

    /// Where the two sides clash, for a person: the front-matter keys both changed
    /// differently, with each side's value, else the body or the text.
    static func clash(path: String, base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> String {
        // Probes: versions that do not all parse are described by their lines instead.
        guard FileMerge.isDocument(path), let b = try? Document(bytes: base), let o = try? Document(bytes: ours),
              let t = try? Document(bytes: theirs)
        else { return "the same lines changed on both sides" }
        var keys = o.fields.keys
        for key in t.fields.keys where !keys.contains(key) { keys.append(key) }
        let clashes = keys.filter { o[$0] != b[$0] && t[$0] != b[$0] && o[$0] != t[$0] }.map { key in
            "\(key) (\(o[key].map(display) ?? "removed") | \(t[key].map(display) ?? "removed"))"
        }
        return clashes.isEmpty ? "the body (the same lines changed on both sides)" : clashes.joined(separator: ", ")
    }

    static func display(_ value: YAMLValue) -> String {
        switch value {
        case .string(let text), .timestamp(let text): return text
        default: return value.json(indent: nil)
        }
    }
}

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

    static func droppedValue(_ key: String, base: YAMLValue?, side: YAMLValue?, other: YAMLValue?, merged: YAMLValue?) -> String? {
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

    static func droppedLine(_ base: [UInt8], _ sides: [[UInt8]], _ merged: [UInt8]) -> String? {
        let before = Set(lines(base)), after = Set(lines(merged))
        for side in sides {
            for line in lines(side) where !before.contains(line) && !after.contains(line) && !line.allSatisfy({ $0 == 32 || $0 == 9 }) {
                return "the line “\(String(decoding: line, as: UTF8.self))”"
            }
        }
        return nil
    }

    /// The lines of `bytes` without their endings, a Markdown list number or trailing blanks.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
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
