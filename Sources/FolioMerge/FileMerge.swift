import FolioFormat

/// The one choice of how a file's three versions merge, used by the sync, the fold of
/// conflict copies and `folio merge-file`: a Markdown document — by its name, or when a
/// version starts with front matter (git hands its merge driver temporary names) — by
/// structure with ``DocumentMerge``; everything else line by line with ``TextMerge``.
public enum FileMerge {
    /// Whether the file at `path` is a Markdown document: by its name, or when one of
    /// `versions` starts with front matter.
    public static func isDocument(_ path: String, versions: [[UInt8]] = []) -> Bool {
        path.hasSuffix(".md") || path.hasSuffix(".markdown") || versions.contains(where: startsWithFrontMatter)
    }

    /// Whether `bytes` open with a front-matter line (`---`), after a BOM if any.
    static func startsWithFrontMatter(_ bytes: [UInt8]) -> Bool {
        let rest = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return rest.starts(with: Array("---\n".utf8)) || rest.starts(with: Array("---\r\n".utf8))
    }

    /// Merges `ours` and `theirs`, descendants of `base`, as the file at `path`. With
    /// the copy policy, a text file that conflicts keeps our version whole, and theirs is
    /// returned to be saved beside it (as a document keeps our value of each part).
    public static func merge(
        path: String, base: [UInt8], ours: [UInt8], theirs: [UInt8], options: MergeOptions = MergeOptions(), policy: ConflictPolicy = .markers
    ) -> DocumentMergeResult {
        if isDocument(path, versions: [base, ours, theirs]) {
            return DocumentMerge.merge(base: base, ours: ours, theirs: theirs, options: options, policy: policy)
        }
        let text = TextMerge.merge(base: base, ours: ours, theirs: theirs, options: options)
        if policy == .copy && text.conflicts > 0 {
            return DocumentMergeResult(bytes: ours, conflicts: text.conflicts, conflictCopy: theirs, structural: false)
        }
        return DocumentMergeResult(bytes: text.bytes, conflicts: text.conflicts, conflictCopy: nil, structural: false)
    }
}
