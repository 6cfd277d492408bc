import FolioSystem
import FolioFormat
import FolioMerge

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
    package var hash: SHA256.Digest
    /// When this version was seen (ns since the epoch).
    public var time: Int64
    /// Where it comes from.
    public var source: Source

    /// A candidate.
    package init(hash: SHA256.Digest, time: Int64, source: Source) {
        (self.hash, self.time, self.source) = (hash, time, source)
    }
}
