import FolioFolder
import FolioFormat
import FolioSync
import FolioSystem

/// The conflict copies of a folder and, for each, whether `folio fold` can fold it and
/// why not, found by a dry-run fold (no lock taken, nothing written, no quiet period):
/// what `folio conflicts` and `folio check` report.
struct ConflictStatus {
    /// What can be done with one copy.
    enum Verdict: Equatable {
        /// A fold would merge it cleanly, against a base from `base` (nil: the copy
        /// holds what the file holds).
        case foldable(base: BaseCandidate.Source?)
        /// A fold would keep it, for this reason (`time (20m | 25m)`, no base, …).
        case kept(String)
        /// The sync tool is still writing it or its file.
        case waiting
        /// A copy `folio sync` saved beside a file it could not merge: a person decides.
        case folioConflict
    }

    /// The folder, as the user named it.
    var folder: String
    /// The copy, relative to the folder.
    var copy: String
    /// The file it is a version of.
    var file: String
    /// What can be done with it.
    var verdict: Verdict

    /// The sentence after `COPY  (a version of FILE): `.
    var sentence: String {
        switch verdict {
        case .foldable(let base?): return "can be folded (base: \(base.rawValue))"
        case .foldable(nil): return "can be folded (it holds what the file holds)"
        case .kept(let reason): return "cannot be folded: \(reason); " + Self.settling(copy, in: folder)
        case .waiting: return "not yet: the sync tool is still writing it or its file"
        case .folioConflict: return "a conflict left by folio sync: " + Self.settling(copy, in: folder)
        }
    }

    /// What to do about a copy that stays: see how it differs, then keep one side.
    static func settling(_ copy: String, in folder: String) -> String {
        "compare them with folio resolve \(Shell.quoted(folder)) \(Shell.quoted(copy)), then keep one with --keep file or --keep copy"
    }

    /// `COPY  (a version of FILE): SENTENCE`.
    var line: String { "\(copy)  (a version of \(file)): \(sentence)" }

    /// The copy as a JSON object: copy, file, foldable, and base or reason.
    var json: YAMLValue {
        var object: YAMLMapping = ["copy": .string(copy), "file": .string(file)]
        switch verdict {
        case .foldable(let base):
            object["foldable"] = .bool(true)
            object["base"] = base.map { .string($0.rawValue) } ?? .null
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

    /// Every conflict copy under `root` (skipping what is never synced), in path order.
    /// The state folder (`state`, else the folder's default) is read only when another
    /// tool's copy is there to judge.
    static func all(in root: String, state: String?) throws(SyncError) -> [ConflictStatus] {
        let paths: [String]
        do {
            paths = try DirectoryWalk.files(under: RootedFolder(root).root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { _ in true }).paths
        } catch { throw SyncError(error.isMissingPath ? .replicaMissing : .fileIO, "\(error)") }
        let copies = paths.compactMap { path in ConflictCopies.originalOfAnyCopy(path).map { (copy: path, file: $0) } }
        var verdicts: [String: Verdict] = [:]
        if copies.contains(where: { ConflictCopies.original(of: $0.copy) != nil }) {
            var options = FoldOptions()
            options.stateDirectory = state
            options.dryRun = true
            options.quietPeriod = .zero
            let report = try SharedFolder(root, options: options).fold()
            for fold in report.folded { verdicts[fold.copy] = .foldable(base: fold.base) }
            for kept in report.kept { verdicts[kept.copy] = .kept(kept.reason) }
            for copy in report.waiting { verdicts[copy] = .waiting }
        }
        return copies.sorted { $0.copy < $1.copy }.map { copy, file in
            guard ConflictCopies.original(of: copy) != nil else { return ConflictStatus(folder: root, copy: copy, file: file, verdict: .folioConflict) }
            // The dry run passes over a copy it cannot read.
            return ConflictStatus(folder: root, copy: copy, file: file, verdict: verdicts[copy] ?? .kept("it went or cannot be read now: run folio conflicts again"))
        }
    }
}
