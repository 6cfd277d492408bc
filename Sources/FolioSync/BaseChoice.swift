/// A version that could be the common ancestor of a file and its conflict copy.
public struct BaseCandidate: Sendable, Hashable {
    /// Where a candidate comes from.
    public enum Source: String, Sendable, Hashable, Comparable {
        /// Folio's own history of the folder.
        case history
        /// Syncthing's `.stversions/` (the time is when Syncthing set it aside).
        case syncthingVersions = "Syncthing's .stversions"
        /// The last commit of the path, when the folder is in a git work tree.
        case git

        /// Ties at one instant go to Folio's history, then Syncthing, then git.
        public static func < (lhs: Source, rhs: Source) -> Bool {
            let order: [Source] = [.git, .syncthingVersions, .history]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// The content's hash.
    public var hash: SHA256.Digest
    /// When this version was seen (ns since the epoch).
    public var time: Int64
    /// Where it comes from.
    public var source: Source

    /// A candidate.
    public init(hash: SHA256.Digest, time: Int64, source: Source) {
        (self.hash, self.time, self.source) = (hash, time, source)
    }
}

/// Which recorded version a conflict copy and its file are folded against. The two are
/// concurrent: each was edited from a common ancestor older than any version of either
/// that Folio saw. So the base is the newest candidate strictly older than the first
/// appearance of either side (the newest of all when neither was ever seen), and never
/// one of the two sides: a base equal to a side makes the merge take the other side
/// whole, silently dropping that side's edits. Pure, and the same on every device that
/// saw the same versions.
public enum BaseChoice {
    /// The base for folding `copy` into `file` (their hashes), from `candidates`, given
    /// when each content was first seen (`firstSeen`, nil when never); nil when none is
    /// trustworthy.
    public static func choose(
        from candidates: [BaseCandidate], file: SHA256.Digest, copy: SHA256.Digest, firstSeen: (SHA256.Digest) -> Int64?
    ) -> BaseCandidate? {
        let cutoff = [firstSeen(file), firstSeen(copy)].compactMap { $0 }.min()
        return candidates
            .filter { candidate in candidate.hash != file && candidate.hash != copy && (cutoff.map { candidate.time < $0 } ?? true) }
            .max { ($0.time, $0.source, $0.hash.description) < ($1.time, $1.source, $1.hash.description) }
    }
}
