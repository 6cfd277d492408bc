import FolioFolder
import FolioSystem
import FolioVersions

/// What one pass of a sync carries from phase to phase (``SyncEngine/runOnce()``).
struct SyncRun {
    /// The state folder's lock, held until the pass ends (nil in a dry run).
    let lock: StateLock?
    /// The state folder.
    let state: RootedFolder
    /// The tags of earlier runs that ended, whose temporary files are leftovers.
    let endedRuns: Set<UInt32>
    /// Where the archive is kept, and how it was read.
    let storage: ArchiveStorage
    let loaded: ArchiveStorage.Loaded
    /// The archive as read, and as this pass changes it.
    var knownArchive: SyncArchive
    var archive: SyncArchive
    /// Each replica's `.folioignore` as read (A, B).
    let rules: PerReplica<String>
    /// What either side's `.folioignore` names, ignored on both.
    let ignore: FolioIgnore
    /// Each replica's own rules (A, B): what the other's alone ignore is held back, and reported.
    let ownIgnore: PerReplica<FolioIgnore>
    /// The merge bases and the versions seen.
    let bases: BaseStore
    let history: VersionHistory
    /// How many files (not folders) the archive held.
    var archivedFiles = 0
    /// Whether names that differ only by case were taken out (then every archived path is planned).
    var clashed = false
    /// Runs whose leftover temporaries could not be moved to the trash.
    var unmovedRuns: Set<UInt32> = []
    /// Whether the archive is the one a ``SyncMemory`` held (then hints can be trusted).
    var fromMemory = false
    /// Whether only the paths the pass looks at and writes can change the archive (a pass
    /// on an archive from memory, or one scoped to what a quick look found): it then saves
    /// and counts by what it touched, not by comparing the archive whole.
    var tracksChanges = false
    /// What a hinted pass looks at; nil: both replicas whole.
    var scope: ScanScope?
    /// The stamp index a quick look found current, which a pass scoped to its findings
    /// patches where it changed the archive (``touched``) rather than make it whole.
    var indexToPatch: StampIndex?
    /// Files of each replica another reader just read (``SyncMemory/offer(_:in:)``), taken
    /// by the scan where the file still has the stamp it was read at.
    var offered: [Replica: [SyncPath: FileRead]] = [:]
    /// The paths the plan looked at, those whose entries were taken out for a clash, and
    /// what the steps wrote: in a pass on an archive from memory, all it can have changed at.
    var touched: Set<SyncPath> = []
    /// The entries at ``touched`` paths before the pass changed them (nil: none), as far
    /// as they were known before a step ran.
    var before: [SyncPath: SyncArchive.Entry?] = [:]
    /// How many files (not folders) the archive holds, when known without counting.
    var fileCount: Int?

    /// Notes that the pass may change the entry of `path`, and what it was: only in a
    /// pass that tracks its changes, saving and counting by what it touched (any other
    /// compares the archive whole; a first sync would note every path).
    mutating func remember(_ path: SyncPath) { remember(path, was: archive.entries[path]) }

    /// Notes that the pass changed the entry of `path`, which was `was` before (kept
    /// when the path was noted already).
    mutating func remember(_ path: SyncPath, was: SyncArchive.Entry?) {
        guard tracksChanges, touched.insert(path).inserted else { return }
        before[path] = .some(was)
    }

    /// The archive, handed over: the caller then holds its only copy, so that changing
    /// it does not copy it whole.
    mutating func takeArchive() -> SyncArchive {
        defer { archive = SyncArchive() }
        return archive
    }

    /// How many files the archive holds now: from the count before and the entries
    /// changed when one was known, else counted.
    func countFiles() -> Int {
        guard let fileCount, tracksChanges else { return archive.entries.keys.count { !$0.isFolder } }
        var count = fileCount
        for path in touched where path.isFile {
            let was = before[path].map { $0 != nil } ?? false
            let isNow = archive.entries[path] != nil
            count += (isNow ? 1 : 0) - (was ? 1 : 0)
        }
        return count
    }
}

/// The two replicas' scans, side by side (two stored properties, so that a phase can
/// change both at once without copying either).
typealias ReplicaScans = PerReplica<ReplicaScan>
