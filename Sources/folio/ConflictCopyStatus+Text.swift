import FolioFolder
import FolioFormat
import FolioShared
import FolioSync
import FolioVersions
/// The command line's name for a copy's status.
typealias ConflictStatus = ConflictCopyStatus

/// A copy's status in words: a line for `folio conflicts` and `folio check`, and a JSON object.
extension ConflictCopyStatus {
    /// The sentence after `COPY  (a version of FILE): `.
    var sentence: String {
        if let sameAs, case .foldable = verdict { return "can be set aside: \(sameAs) holds the same content" }
        switch verdict {
        case .foldable(let base?): return "can be folded (base: \(base.rawValue))"
        case .foldable(nil): return "can be folded (it holds what the file holds)"
        case .kept(let reason): return "cannot be folded: \(reason); " + Self.settling(copy, in: folder)
        case .waiting: return "not yet: the sync tool is still writing it or its file"
        case .folioConflict: return "a conflict Folio kept (folio sync or folio git-sync): " + Self.settling(copy, in: folder)
        }
    }

    /// What to do about a copy that stays: see how it differs, then keep one side.
    static func settling(_ copy: String, in folder: String) -> String {
        "compare them with folio resolve \(Shell.quoted(folder)) \(Shell.quoted(copy)), then keep one with --keep file or --keep copy"
    }

    /// `COPY  (a version of FILE): SENTENCE`.
    var line: String { "\(copy)  (a version of \(file)): \(sentence)" }

    /// The copy as a JSON object: copy, file, foldable, and base and sameAs (the copy
    /// holding the same bytes it would be set aside for), or reason.
    var json: YAMLValue {
        var object: YAMLMapping = ["copy": .string(copy), "file": .string(file)]
        switch verdict {
        case .foldable(let base):
            object["foldable"] = .bool(true)
            object["base"] = base.map { .string($0.rawValue) } ?? .null
            object["sameAs"] = sameAs.map(YAMLValue.string) ?? .null
        case .kept(let reason):
            object["foldable"] = .bool(false)
            object["reason"] = .string(reason)
        case .waiting, .folioConflict:
            object["foldable"] = .bool(false)
            object["reason"] = .string(sentence)
        }
        object["fromFolioSync"] = .bool(verdict == .folioConflict)
        return .mapping(object)
    }
}
