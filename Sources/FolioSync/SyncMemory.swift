import FolioSystem
import FolioVersions

/// What a process that syncs one pair again and again (``PairWatcher``) keeps from one
/// sync to the next, so that a sync of a few hinted paths costs a few paths: the
/// archive as it saved it (read from disk again whenever the files there are not the
/// ones it left: another process synced the pair meanwhile), and the paths a sync left
/// for a later one (a file that could not be read, an entry without a stamp), looked at
/// again by every hinted sync until they are settled.
public struct SyncMemory: Sendable {
    /// The archive this process saved last, with the stamps of the files it is in.
    struct Archive: Sendable {
        var state: String
        var archive: SyncArchive
        var loaded: ArchiveStorage.Loaded
        var stamps: [FileStamp?]
        /// How many files it holds.
        var fileCount: Int?
    }

    var archive: Archive?
    /// The hashes of the bases stored, as the last sync left them (gathering them from
    /// the archive costs a pass over it).
    var storedHashes: Set<SHA256.Digest>?
    /// Paths a sync left unsettled (relative, as hints are).
    package internal(set) var unsettled: Set<String> = []

    /// Whether syncs keep anything in it: a one-off sync (``SyncEngine/run()``) need not
    /// work out what a next one would want.
    var remembers = true
    /// Files another reader of a replica read a moment ago (a store's watcher of replica
    /// A), by replica and path: the next sync takes one whose file still has the stamp it
    /// was read at rather than reading it again (``offer(_:in:)``).
    var offered: [Replica: [SyncPath: FileRead]] = [:]

    /// Takes `reads`, files of `replica` just read by another reader of it, for the next
    /// sync: a file still as read (its stamp) is not read again.
    package mutating func offer(_ reads: [FileRead], in replica: Replica) {
        // Reads of files no sync came to (ignored ones) are not kept for ever.
        if offered[replica, default: [:]].count > 4_096 { offered[replica] = [:] }
        for read in reads { offered[replica, default: [:]][SyncPath(file: read.path)] = read }
    }

    /// Whether the stamp index in the state folder was found to be the archive's (see
    /// ``SyncEngine/quickLook(memory:)``): a sync that changes nothing need not write it.
    var stampIndexIsCurrent = false

    /// The archive a quick look read while it looked (``ArchivePreload``), for the pass
    /// that follows it; taken by that pass.
    var preloaded: ArchivePreload.Read?

    /// An empty memory: the next sync reads the archive and scans both replicas whole.
    public init() {}

    /// A memory nothing is kept in, for a single sync.
    static var none: SyncMemory {
        var memory = SyncMemory()
        memory.remembers = false
        return memory
    }

    /// Whether the archive is held.
    package var holdsArchive: Bool { archive != nil }
}
