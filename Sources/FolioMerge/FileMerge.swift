import FolioFormat

/// The one choice of how a file's three versions merge: Markdown documents (by name,
/// or when a version starts with front matter) by structure with ``DocumentMerge``,
/// everything else line by line with ``TextMerge``.
public enum FileMerge {
    /// Whether `path` names a Markdown document.
    public static func isDocument(_ path: String) -> Bool {
        path.hasSuffix(".md") || path.hasSuffix(".markdown")
    }

    /// Merges `ours` and `theirs`, descendants of `base`, as the file at `path`.
    public static func merge(
        path: String, base: [UInt8], ours: [UInt8], theirs: [UInt8], options: MergeOptions = MergeOptions(), policy: ConflictPolicy = .markers
    ) -> DocumentMergeResult {
        if isDocument(path) {
            return DocumentMerge.merge(base: base, ours: ours, theirs: theirs, options: options, policy: policy)
        }
        let text = TextMerge.merge(base: base, ours: ours, theirs: theirs, options: options)
        return DocumentMergeResult(bytes: text.bytes, conflicts: text.conflicts, conflictCopy: nil, structural: false)
    }
}
