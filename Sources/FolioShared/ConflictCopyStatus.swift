import FolioFolder
import FolioSystem
import FolioVersions

/// A conflict copy of a folder and whether a fold can fold it, and why not, found by a
/// dry-run fold (no lock taken, nothing written, no quiet period): what `folio
/// conflicts` and `folio check` report, and what an app shows its user to settle.
public struct ConflictCopyStatus: Sendable, Equatable {
    /// What can be done with one copy.
    public enum Verdict: Sendable, Equatable {
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

    /// The folder, as the caller named it.
    public var folder: String
    /// The copy, relative to the folder.
    public var copy: String
    /// The file it is a version of.
    public var file: String
    /// What can be done with it.
    public var verdict: Verdict
    /// Another copy of the same file that holds the same bytes, when this one is
    /// foldable only as its duplicate: a fold sets it aside for that copy rather than
    /// merging it (nil otherwise). Beside ``verdict`` rather than in it, so code that
    /// switches over ``Verdict`` keeps compiling.
    public var sameAs: String? = nil

    /// Every conflict copy under `root` (skipping what is never synced), in path order.
    /// The state folder (`state`, else the folder's default) is read only when another
    /// tool's copy is there to judge.
    public static func all(in root: String, state: String?) throws(SyncError) -> [ConflictCopyStatus] {
        let paths: [String]
        do {
            paths = try DirectoryWalk.files(under: RootedFolder(root).root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { _ in true }).paths
        } catch { throw SyncError(error.isMissingPath ? .replicaMissing : .fileIO, "\(error)") }
        return try all(in: root, state: state, files: paths)
    }

    /// ``all(in:state:)`` among `files`, the folder's files (relative) as a walk that
    /// skips what is never synced found them (`folio check` has walked it already).
    public static func all(in root: String, state: String?, files paths: [String]) throws(SyncError) -> [ConflictCopyStatus] {
        let names = ConflictCopyNames.declared(inFolderAt: root)
        let copies = paths.compactMap { path in names.originalOfAnyCopy(path).map { (copy: path, file: $0) } }
        var verdicts: [String: Verdict] = [:], twins: [String: String] = [:]
        if copies.contains(where: { names.original(of: $0.copy) != nil }) {
            var options = FoldOptions()
            options.stateDirectory = state
            options.dryRun = true
            options.quietPeriod = .zero
            let report = try SharedFolder(root, options: options).fold()
            for fold in report.folded {
                verdicts[fold.copy] = .foldable(base: fold.base)
                twins[fold.copy] = fold.sameAs
            }
            for kept in report.kept { verdicts[kept.copy] = .kept(kept.reason) }
            for copy in report.waiting { verdicts[copy] = .waiting }
        }
        return copies.sorted { $0.copy < $1.copy }.map { copy, file in
            guard names.original(of: copy) != nil else { return ConflictCopyStatus(folder: root, copy: copy, file: file, verdict: .folioConflict) }
            // The dry run passes over a copy it cannot read.
            return ConflictCopyStatus(folder: root, copy: copy, file: file, verdict: verdicts[copy] ?? .kept("it went or cannot be read now: run folio conflicts again"), sameAs: twins[copy])
        }
    }
}
