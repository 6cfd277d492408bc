import FolioFolder
import FolioShared
import FolioVersions
/// A path in one replica: what a report says `A:PATH` of.
public struct ReplicaPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The replica.
    public var replica: Replica
    /// The path, relative to the replica's root (a folder's ends in `/`).
    public var path: SyncPath

    /// `path` in `replica`.
    public init(_ replica: Replica, _ path: SyncPath) { (self.replica, self.path) = (replica, path) }

    /// `path` (in the archive's spelling: a folder's ends in `/`) in `replica`.
    public init(_ replica: Replica, _ path: String) { self.init(replica, SyncPath(key: path)) }

    /// `A:PATH` or `B:PATH`.
    public var description: String { "\(replica.rawValue):\(path)" }

    /// In the order of their `A:PATH` spelling, as reports list them.
    public static func < (left: ReplicaPath, right: ReplicaPath) -> Bool { left.description < right.description }
}
