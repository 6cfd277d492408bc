import FolioSystem
import FolioVersions

/// What one fold pass did, copy by copy.
public struct FoldReport: Sendable, Equatable {
    /// A copy merged into its file, then moved to the trash.
    public struct Folded: Sendable, Equatable {
        /// The copy, relative to the folder.
        public var copy: String
        /// Its file.
        public var file: String
        /// Where the base came from (nil when the copy held what the file, or another
        /// copy, did).
        public var base: BaseCandidate.Source?
        /// Another copy of the same file holding the same bytes, for which this one was
        /// only set aside, not merged: copies holding the same bytes are one version, folded
        /// (or kept) once. Nil when this copy was merged, or held what the file held.
        /// Added beside ``base`` rather than as a case, so code that reads it keeps compiling.
        public var sameAs: String? = nil
    }

    /// A copy left in place, and why.
    public struct Kept: Sendable, Equatable {
        /// The copy, relative to the folder.
        public var copy: String
        /// Its file.
        public var file: String
        /// Why it stays: `time (20m | 25m)`, no base, …
        public var reason: String
        /// Whether it stays only because a write failed (the merged file, the file's
        /// version kept in the trash, the copy moved there): a full disk, a read-only
        /// mount. Nothing about the copy itself is wrong, so a later pass folds it once the
        /// write can succeed; ``FoldingFollower`` tries again by itself.
        public var writeFailed: Bool = false
    }

    /// Copies folded (or, on a dry run, that would be).
    public var folded: [Folded] = []
    /// Copies kept: real conflicts, no base, not text, the file gone.
    public var kept: [Kept] = []
    /// Copies left for later: they or their files changed too recently, or the sync
    /// tool is still writing them.
    public var waiting: [String] = []
    /// Versions the graph proves the sync tool dropped (an edit held by a conflict copy
    /// that was then overwritten, from which nothing was made, held by no file or copy),
    /// written back as copies (`NAME.sync-conflict-…-FOLIOSV.EXT`) to be folded like the others.
    public var rescued: [String] = []
    /// Why nothing was done: git is in the middle of an operation in this work tree.
    public var blocked: String?

    /// The files copies were folded into, and those copies (moved to the trash).
    public var foldedPaths: [String] { folded.flatMap { [$0.file, $0.copy] } }
}
