import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions

/// Carries out a sync's steps, one path at a time, keeping the archive and the report.
struct Applier {
    let engine: SyncEngine
    /// The state folder (the trash, the flush before commits).
    let state: RootedFolder
    let bases: BaseStore
    /// The versions seen, kept in the pair's history as they are stored as bases.
    var history: VersionHistory? = nil
    var scans: ReplicaScans
    var archive: SyncArchive
    /// Every entry the steps set or removed, as it was before the first of them (nil:
    /// none): a pass that tracks its changes saves and counts by them, whatever the
    /// report says (a conflict copy recorded before the merge's own write failed, say).
    private(set) var changedEntries: [SyncPath: SyncArchive.Entry?] = [:]
    /// Whether ``changedEntries`` is kept: a pass that compares the archive whole (a
    /// first sync sets every entry) need not.
    var tracksChanges = false
    var report: SyncReport
    /// Folders to remove once everything in them has been dealt with.
    var folderRemovals: [(path: SyncPath, replica: Replica)] = []
    /// Conflict copies folded into their files, trashed by ``finishFolds()``.
    var pendingFolds: [FoldJournal.Entry] = []
    /// The folds a killed sync had begun (see ``FoldJournal``).
    var unfinishedFolds = FoldJournal()
    /// Folders of each replica (A, B) found to be real folders, not links, in this sync.
    var realFolders = PerReplica<Set<String>>(a: [], b: [])
    /// Folders of each replica found missing in this sync (or that could not be looked
    /// at): the write below one makes it, never following a link, and reports what
    /// fails, so they are not looked at again for every file to go in them.
    var absentFolders = PerReplica<Set<String>>(a: [], b: [])
    /// Replacements written to temporary files, renamed by ``commitReplacements()`` after
    /// one flush of them all: (replica, path, temporary file, stamp the scan saw, the
    /// archive entry before this sync touched the path, the hash written).
    var replacements: [(replica: Replica, path: SyncPath, temporary: RootedPath, expected: FileStamp, before: SyncArchive.Entry?, hash: SHA256.Digest)] = []

    func scanned(_ replica: Replica) -> ReplicaScan { scans[replica] }
    func full(_ replica: Replica, _ path: SyncPath) -> RootedPath { engine.folder(replica)[path.relative] }

    mutating func apply(_ step: SyncStep) {
        if let path = step.path, path.isFolder { return applyToFolder(step) }
        switch step {
        case .agree(let path):
            guard let a = scans.a.files[path], let b = scans.b.files[path] else { return }
            if !engine.options.dryRun {
                guard let bytes = read(.a, path) else { return }
                storeBase(bytes, hash: a.hash, at: path)
            }
            record(path, hash: a.hash, stampA: a.stamp, stampB: b.stamp)
        case .forget(let path):
            setEntry(nil, at: path)
        case .copy(let path, let from), .restore(let path, let from):
            copy(path, from: from)
        case .delete(let path, let replica):
            delete(path, in: replica)
        case .merge(let path):
            merge(path)
        case .move(let from, let to, let replica, let edited):
            move(from, to: to, on: replica, edited: edited)
        case .moveByID(let from, let to, let replica):
            moveByID(from, to: to, on: replica)
        }
    }

    /// Renames `from` to `to` on `replica` (the other side renamed and edited it; its
    /// front-matter id says so), carrying the archived base along, then settles `to`
    /// as any path: copied, or merged when `replica` had edited it too.
    mutating func moveByID(_ from: SyncPath, to: SyncPath, on replica: Replica) {
        report.record(.moved(from: from, to: to, on: replica))
        guard !engine.options.dryRun, let file = scanned(replica).files[from], insideRoot(replica, from), insideRoot(replica, to),
              let base = archive.entries[from]
        else { return }
        guard case .moved(let stamp) = renamed(from, to: to, on: replica, expected: file.stamp) else { return }
        // The file is at its new name on both sides now; the base goes with it. Without a
        // stamp from the move (a save landed on it), the scan's stamp from before the
        // rename stands in: it matches no file on disk, so the step below reads nothing
        // (the path is reported changed) and the next scan reads the file.
        var moved = file
        moved.stamp = stamp ?? file.stamp
        scans[replica].files[from] = nil
        scans[replica].files[to] = moved
        setEntry(nil, at: from)
        // The stamp vouches for the base only if the file still holds it; an edited file
        // gets none, so that, were the merge below to give up, the next scan reads it
        // again instead of taking the edit for the base.
        var entry = base
        entry.setStamp(file.hash == base.hash ? stamp : nil, in: replica)
        setEntry(entry, at: to)
        if let step = SyncPlan.step(to, base: base.hash, a: scans.a.files[to]?.hash, b: scans.b.files[to]?.hash) { apply(step) }
    }

    /// Renames `from` to `to` on `replica`, as the other side did; an edit made there
    /// meanwhile goes along and is copied to the other side.
    mutating func move(_ from: SyncPath, to: SyncPath, on replica: Replica, edited: Bool) {
        report.record(.moved(from: from, to: to, on: replica))
        guard !engine.options.dryRun, let file = scanned(replica).files[from], let moved = scanned(replica.other).files[to],
              let base = archive.entries[from], insideRoot(replica, from), insideRoot(replica, to)
        else { return }
        let target = full(replica, to)
        guard case .moved(let stamp) = renamed(from, to: to, on: replica, expected: file.stamp) else { return }
        // The rename is made: a folder whose flush fails is flushed by the file system's
        // own flush before the archive is saved (record()).
        try? target.parent.syncDirectory()
        setEntry(nil, at: from)
        // The base goes with the file. The renaming side holds it at `to` as scanned; this
        // side's stamp vouches for it only when the file moved is the one the scan saw
        // holding it — not when it was edited, nor when the move gives no stamp (a save
        // landed on it around the rename): then the next scan reads it and finds the edit.
        var entry = base
        entry.setStamp(moved.stamp, in: replica.other)
        entry.setStamp(edited ? nil : stamp, in: replica)
        setEntry(entry, at: to)
        guard edited, let stamp else { return }
        // The edit followed the move; the other side still holds the old content at `to`.
        // Read again only to copy the edit across: a file that cannot be read now (or no
        // longer holds the edit) keeps the base's entry, and the next sync finds the edit.
        guard let bytes = try? FileReading.contents(of: target), SHA256.hash(bytes) == file.hash,
              let otherStamp = writeReplacing(bytes, to, in: replica.other, expected: moved.stamp, executable: file.stamp.isExecutable)
        else { return }
        storeBase(bytes, at: to)
        record(to, hash: file.hash, stamp, in: replica, other: otherStamp)
    }

    /// The bytes of `path` in `replica`, if the file still has the stamp the scan saw
    /// (then it holds the content the scan hashed); else the path is reported as changed
    /// during the sync, or, when the disk would not give it, as skipped with the fix.
    mutating func read(_ replica: Replica, _ path: SyncPath) -> [UInt8]? {
        guard insideRoot(replica, path), let file = scanned(replica).files[path] else {
            report.record(.changedDuringSync(path: path))
            return nil
        }
        let bytes: [UInt8]?
        do { bytes = try Self.contents(of: full(replica, path), ifStamped: file.stamp) } catch where error.isMissingPath || error.isNotAFileToRead {
            // Gone, or something else in its place, since the scan: changed.
            bytes = nil
        } catch {
            // Not a change: said as the scan says a file it cannot read, with the fix.
            report.record(skipped: replica, path, FileProblem.reading(error))
            return nil
        }
        guard let bytes else {
            report.record(.changedDuringSync(path: path))
            return nil
        }
        return bytes
    }

    /// Records `path` with `stamp` in `replica` and `other` in the other replica.
    mutating func record(_ path: SyncPath, hash: SHA256.Digest, _ stamp: FileStamp, in replica: Replica, other: FileStamp) {
        var stamps = PerReplica(a: other, b: other)
        stamps[replica] = stamp
        record(path, hash: hash, stampA: stamps.a, stampB: stamps.b)
    }

    /// Sets the archive's entry at `path` (nil: none), noting what it was before the
    /// pass's first change there (``changedEntries``).
    mutating func setEntry(_ entry: SyncArchive.Entry?, at path: SyncPath) {
        if tracksChanges, changedEntries.index(forKey: path) == nil { changedEntries[path] = .some(archive.entries[path]) }
        archive.entries[path] = entry
    }

    mutating func record(_ path: SyncPath, hash: SHA256.Digest, stampA: FileStamp, stampB: FileStamp) {
        // The id of the content recorded: whichever side holds that content now.
        let id = [scans.a.files[path], scans.b.files[path]].compactMap { $0 }.first { $0.hash == hash }?.id
        setEntry(SyncArchive.Entry(hash: hash, size: stampA.size, executable: stampA.isExecutable, stampA: stampA, stampB: stampB, id: id), at: path)
    }

    mutating func copy(_ path: SyncPath, from source: Replica) {
        report.record(.copied(ReplicaPath(source.other, path)))
        guard !engine.options.dryRun, let file = scanned(source).files[path], let bytes = read(source, path) else { return }
        guard let stamp = write(bytes, path, in: source.other, executable: file.stamp.isExecutable, newMode: file.stamp.permissions) else { return }
        storeBase(bytes, hash: file.hash, at: path)
        record(path, hash: file.hash, file.stamp, in: source, other: stamp)
    }

    mutating func delete(_ path: SyncPath, in replica: Replica) {
        report.record(.deleted(ReplicaPath(replica, path)))
        guard !engine.options.dryRun, let expected = scanned(replica).files[path]?.stamp, insideRoot(replica, path) else { return }
        // Into the trash, never unlinked: `folio restore` brings it back.
        do {
            guard try Trash(state: state).move(
                path.relative, from: engine.folder(replica), replica: replica, expected: expected, hash: scanned(replica).files[path]?.hash)
            else {
                report.record(.changedDuringSync(path: path))
                return
            }
            setEntry(nil, at: path)
        } catch {
            report.record(skipped: replica, path, "not deleted: cannot move it to the trash in \(engine.state): " + FileProblem.advice(any: error, writing: true))
        }
    }

    /// Why a file could not be written, in words: a name the file system there cannot
    /// hold (a FAT stick and `:`) is said so, and left alone, never renamed.
    static func cannotWrite(_ error: SystemError) -> String {
        guard Syscall.unholdableName.contains(error.code) else { return FileProblem.writing(error) }
        return "the file system there cannot hold this name (\(Syscall.describe(error.code))): left alone; rename it to sync it"
    }

    /// Keeps a text version as a future merge base, under its hash (`hash`, when the
    /// caller knows it), and in the history as what `path` held now.
    mutating func storeBase(_ bytes: [UInt8], hash: SHA256.Digest? = nil, at path: SyncPath) {
        guard !engine.options.dryRun, Self.isText(bytes), bytes.count <= 16 << 20 else { return }
        let hash = hash ?? SHA256.hash(bytes)
        do {
            try bases.store(bytes, hash: hash)
            if bytes.count <= VersionHistory.largestVersion {
                try history?.record(bytes, hash: hash, at: path.relative, time: engine.now)
            }
        } catch {
            // Not silent: without its base, the next merge of this file would keep a
            // conflict copy where it could have merged.
            if !report.couldNotWriteState {
                report.record(stateNotWritten: "cannot keep the merged version of \(path.key) as the base of the next merge (" + FileProblem.advice(any: error, writing: true) + "); "
                    + "the files are in step, but free space in the state folder, or the next merge may keep a conflict copy")
            }
        }
    }

    func loadBase(_ hash: SHA256.Digest) -> [UInt8]? { bases.load(hash) }
}
