import FolioFolder
import FolioShared
import FolioVersions
/// One thing a sync did, or found for the user to do.
public enum SyncEvent: Sendable, Hashable {
    /// A name renamed to its NFC spelling in its replica.
    case normalized(ReplicaPath)
    /// A file or folder copied into the replica named (from the other).
    case copied(ReplicaPath)
    /// A file or folder deleted in the replica named (into the trash), as the other deleted it.
    case deleted(ReplicaPath)
    /// A rename carried across: `from` renamed to `to` in `replica`.
    case moved(from: SyncPath, to: SyncPath, on: Replica)
    /// Another tool's conflict copy merged back into its file and removed.
    case folded(copy: SyncPath)
    /// Another tool's conflict copy that could not be folded, and why; it stays.
    case keptCopy(ReplicaPath, reason: String)
    /// A path both sides changed, merged into one version.
    case merged(path: SyncPath)
    /// A real conflict: the other version saved as `copy`, or marked in the file (nil).
    case conflict(path: SyncPath, copy: SyncPath?)
    /// A path that changed while the sync ran: left for the next one.
    case changedDuringSync(path: SyncPath)
    /// Folio's own temporary file left by a killed process, removed.
    case removedTemporary(ReplicaPath)
    /// A path one replica's rules would sync that the other's `.folioignore` holds back.
    case heldBack(ReplicaPath)
    /// A path left alone, and why (`replica` nil when it concerns both); `byDesign` for
    /// links and devices, which are no problem.
    case skipped(replica: Replica?, path: SyncPath, reason: String, byDesign: Bool)
    /// Part of the sync's own state that could not be written, and why.
    case stateNotWritten(reason: String)
}
