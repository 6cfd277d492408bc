import FolioSystem
import FolioVersions

/// Where a pair's archive is kept in its state folder: `archive`, a whole snapshot
/// (written to a temporary file, flushed, renamed), and `archive.log`, the changes of
/// later syncs appended to it in blocks, each flushed and ended by a `commit` line. A
/// sync that changes a few paths of 100,000 appends a few lines instead of rewriting
/// them all; once the log grows past a quarter of the snapshot, the next save writes a
/// new snapshot (one generation on) and removes the log.
///
/// Crash-safe at every instant: a block cut short lacks its `commit` line and is
/// ignored (the archive is then as the sync before left it, and the next save writes a
/// snapshot rather than append after it); blocks of an older generation, left by a
/// crash between a new snapshot and the log's removal, are ignored too.
struct ArchiveStorage {
    let state: RootedFolder
    var snapshotPath: RootedPath { state["archive"] }
    var logPath: RootedPath { state["archive.log"] }

    /// What a load found, for the next save.
    struct Loaded {
        var generation = 0
        var snapshotSize = 0
        var logSize = 0
        /// The log ends in an unfinished block: the next save must not append after it.
        var torn = false

        /// Whether the next save writes a whole snapshot whatever changed: there is none
        /// yet, or the log cannot be appended to. Its change lines need not be made.
        var savesSnapshot: Bool { snapshotSize == 0 || torn }
    }

    /// The archive as last saved (empty before the first sync).
    func load() throws(SyncError) -> (archive: SyncArchive, loaded: Loaded) {
        let snapshot: [UInt8]?, log: [UInt8]?
        do {
            snapshot = try AtomicFile.contentsIfPresent(snapshotPath)
            log = try AtomicFile.contentsIfPresent(logPath)
        } catch { throw SyncError(.stateIO, "cannot read the archive in \(state.path): " + FileProblem.advice(error, writing: false)) }
        guard let snapshot else { return (SyncArchive(), Loaded(torn: log != nil)) }
        do {
            var (archive, generation) = try SyncArchive.parse(snapshot)
            var loaded = Loaded(generation: generation, snapshotSize: snapshot.count, logSize: log?.count ?? 0)
            if let log { loaded.torn = try archive.apply(log: log, generation: generation).torn }
            return (archive, loaded)
        } catch where error.kind == .stateDamaged {
            // What to do, with the paths: without an archive the replicas are compared
            // afresh, as at a first sync (nothing deleted, differing files kept both).
            throw SyncError(.stateDamaged, "the archive in \(state.path) is damaged (\(error.description)): move \(snapshotPath.path) and "
                + "\(logPath.path) aside, then sync again; the replicas are then compared afresh, as at a first sync (nothing is deleted, "
                + "and a file that differs is kept in both versions)")
        }
    }

    /// The lines that turn `known` into `archive`: every path whose entry differs.
    /// Empty when nothing differs.
    static func changes(_ archive: SyncArchive, known: SyncArchive) -> [UInt8] {
        var block: [UInt8] = []
        func note(_ path: SyncPath) {
            let entry = archive.entries[path]
            guard known.entries[path] != entry else { return }
            appendChange(path, entry, to: &block)
        }
        for path in archive.entries.keys { note(path) }
        for path in known.entries.keys where archive.entries[path] == nil { note(path) }
        return block
    }

    /// The lines that turn the archive a pass started from into `archive`, when only the
    /// `touched` paths can have changed, `before` holding their entries then (a path it
    /// lacks is written whatever it was: a line that sets an entry to what it is is harmless).
    /// `known` is that archive whole in debug builds, to check the lines against.
    static func changes(_ archive: SyncArchive, before: [SyncPath: SyncArchive.Entry?], touched: Set<SyncPath>, known: SyncArchive) -> [UInt8] {
        var block: [UInt8] = []
        for path in touched.sorted() {
            let entry = archive.entries[path]
            if let was = before[path], was == entry { continue }
            appendChange(path, entry, to: &block)
        }
        #if DEBUG
        // Every change the pass made must be among the lines: else the archive saved would
        // lack a change the one in memory has.
        let named = Set(block.split(separator: 10)), all = Set(changes(archive, known: known).split(separator: 10))
        assert(all.isSubset(of: named), "a hinted sync changed the archive at paths it did not name: "
            + all.subtracting(named).map { String(decoding: $0, as: UTF8.self) }.sorted().joined(separator: "; "))
        #endif
        return block
    }

    /// The log line that sets `path` to `entry`, or removes it (nil).
    static func appendChange(_ path: SyncPath, _ entry: SyncArchive.Entry?, to block: inout [UInt8]) {
        if let entry {
            SyncArchive.appendLine(path, entry, to: &block)
        } else {
            block += Array("-\t".utf8)
            LineFields.appendEscaped(path.key, to: &block)
            block.append(10)
        }
    }

    /// What a save writes (``prepareSave(_:changes:loaded:)``): made apart from the
    /// writing, so that a sync makes it while the file system is being flushed.
    enum PendingSave {
        /// A new snapshot of this generation.
        case snapshot([UInt8], generation: Int)
        /// A block appended to the log.
        case block([UInt8])
    }

    /// Saves the `changes` (``changes(_:known:touched:)``) that made `archive` of the
    /// archive as `loaded`: as a block appended to the log when that is small, else as a
    /// new snapshot. Returns what a load would find now.
    @discardableResult
    func save(_ archive: SyncArchive, changes: [UInt8], loaded: Loaded) throws(SystemError) -> Loaded {
        try commit(Self.prepareSave(archive, changes: changes, loaded: loaded), loaded: loaded)
    }

    /// The bytes ``save(_:changes:loaded:)`` writes. Pure.
    static func prepareSave(_ archive: SyncArchive, changes: [UInt8], loaded: Loaded) -> PendingSave {
        let block = changes + Array("commit\t\(loaded.generation)\n".utf8)
        guard !loaded.savesSnapshot, (loaded.logSize + block.count) * 4 < loaded.snapshotSize else {
            let generation = loaded.generation + 1
            return .snapshot(archive.serialized(generation: generation), generation: generation)
        }
        return .block(block)
    }

    /// Writes what ``prepareSave(_:changes:loaded:)`` made of the archive as `loaded`.
    func commit(_ save: PendingSave, loaded: Loaded) throws(SystemError) -> Loaded {
        switch save {
        case .snapshot(let snapshot, let generation):
            _ = try AtomicFile.write(snapshot, to: snapshotPath, mode: 0o600, replacingOnly: nil)
            // Were this removal lost, the log's blocks are of the old generation: ignored.
            if loaded.logSize > 0 || loaded.torn { try? AtomicFile.remove(logPath) }
            return Loaded(generation: generation, snapshotSize: snapshot.count)
        case .block(let block):
            try AtomicFile.append(block, to: logPath, flushing: true)
            if loaded.logSize == 0 { try state.root.syncDirectory() }
            var now = loaded
            now.logSize += block.count
            return now
        }
    }

    /// Saves `archive`, which was `known` when loaded (``save(_:changes:loaded:)``).
    @discardableResult
    func save(_ archive: SyncArchive, known: SyncArchive, loaded: Loaded) throws(SystemError) -> Loaded {
        try save(archive, changes: Self.changes(archive, known: known), loaded: loaded)
    }

    /// The stamps of the snapshot and the log: while they are those this process left,
    /// the archive it holds in memory is the one on disk.
    func stamps() -> [FileStamp?] {
        // Absent or unreadable alike: a stamp that differs only makes the archive be read again.
        [try? FileStamp.of(snapshotPath), try? FileStamp.of(logPath)]
    }
}
