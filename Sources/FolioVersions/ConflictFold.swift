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

    package static func isText(_ bytes: [UInt8]) -> Bool { !bytes.prefix(8000).contains(0) }

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
    package static func clash(path: String, base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> String {
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

    package static func display(_ value: YAMLValue) -> String {
        switch value {
        case .string(let text), .timestamp(let text): return text
        default: return value.json(indent: nil)
        }
    }
}
