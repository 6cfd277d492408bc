@testable import FolioMerge

/// The document merge of three texts, as text and a count of conflicts: what the
/// merge-pattern suites compare.
func documentMerge(_ base: String, _ ours: String, _ theirs: String) -> (text: String, conflicts: Int) {
    let result = DocumentMerge.merge(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8))
    return (String(decoding: result.bytes, as: UTF8.self), result.conflicts)
}
