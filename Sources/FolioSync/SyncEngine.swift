import Dispatch
import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions

/// Keeps two replicas in step: both scanned (only changed stamps re-read), each path
/// decided by ``SyncPlan`` against the archive, changes carried out so that nothing is
/// ever lost — every write to a temporary file renamed over its target only if the
/// target is still what the scan saw, every delete a move into the trash, the archive
/// recording a path only once both replicas hold its result.
public struct SyncEngine: Sendable {
    /// The replicas' folders, as absolute paths.
    public let roots: PerReplica<String>
    /// The options in force.
    public let options: SyncOptions
    /// Where the archive lives.
    public let state: String
    /// The replicas, pinned when the engine was made: every file operation below one
    /// goes through its descriptor.
    public let folders: PerReplica<RootedFolder>

    /// The first replica's folder.
    public var rootA: String { roots.a }
    /// The second replica's folder.
    public var rootB: String { roots.b }
    /// The first replica, pinned.
    public var folderA: RootedFolder { folders.a }
    /// The second replica, pinned.
    public var folderB: RootedFolder { folders.b }

    /// An engine for the replicas `a` and `b`.
    public init(_ a: String, _ b: String, options: SyncOptions = SyncOptions()) throws(SyncError) {
        func absolute(_ path: String) throws(SyncError) -> String {
            do { return try Syscall.realPath(path) } catch { throw SyncError(.replicaMissing, "\(path): the replica is missing (\(error)); nothing was changed") }
        }
        let roots = PerReplica(a: try absolute(a), b: try absolute(b))
        self.roots = roots
        let (rootA, rootB) = (roots.a, roots.b)
        folders = try roots.map { (path: String) throws(SyncError) -> RootedFolder in
            do { return try RootedFolder(path) } catch { throw SyncError(.replicaMissing, "\(path): cannot open the replica (\(error)); nothing was changed") }
        }
        guard rootA != rootB else { throw SyncError(.replicasOverlap, "\(a) and \(b) are the same folder") }
        guard !rootA.hasPrefix(rootB + "/") && !rootB.hasPrefix(rootA + "/") else {
            throw SyncError(.replicasOverlap, "\(a) and \(b) are inside one another; replicas must be separate folders")
        }
        self.options = options
        copyNames = ConflictCopyNames.declared(in: folders.a).merging(.declared(in: folders.b))
        let pair = String(SHA256.hash(Array((rootA + "\u{0}" + rootB).utf8)).description.prefix(16))
        state = options.stateDirectory ?? StateFolder.home + "/" + pair
    }

    /// How the replicas name conflict copies: the built-in names and the patterns either
    /// replica's `folio.yaml` declares (read when the engine is made).
    package let copyNames: ConflictCopyNames

    /// The folder of `replica`, as an absolute path.
    public func root(_ replica: Replica) -> String { roots[replica] }

    /// The same engine with both replicas opened again at their paths (for a process
    /// that syncs for weeks: a replica unmounted and mounted again is the one at the path now).
    public func repinned() throws(SyncError) -> SyncEngine {
        try SyncEngine(rootA, rootB, options: options)
    }

    /// The pinned folder of `replica`.
    func folder(_ replica: Replica) -> RootedFolder { folders[replica] }

    /// The state folder, opened (and made, 0700, when missing: it holds copies of every
    /// text file).
    public func openState() throws(SyncError) -> RootedFolder {
        do { return try RootedFolder.creating(state, mode: 0o700) } catch {
            throw SyncError(.stateIO, "cannot open the state folder \(state): " + FileProblem.advice(any: error, writing: true) + "; nothing was changed")
        }
    }

    /// The time now, in nanoseconds since the epoch (as the history records it).
    var now: Int64 { Syscall.nanosecondsNow() }

    /// The archive as last saved (empty before the first sync).
    package func loadArchive() throws(SyncError) -> SyncArchive {
        try ArchiveStorage(state: openState()).load().archive
    }

    /// Runs one sync of both replicas whole.
    public func run() throws(SyncError) -> SyncReport {
        var memory = SyncMemory.none
        return try run(hints: nil, memory: &memory)
    }

    /// Runs one sync. With `hints` (paths relative to either replica, as a watcher names
    /// them: files, or folders with everything in them), only those paths are looked at
    /// on both sides, with what they imply (a new folder whole), and everything else is
    /// taken to be as the archive in `memory` has it: the steps are those a whole sync
    /// would take when nothing else changed. A whole sync still runs when `hints` is nil,
    /// when `memory` does not hold the archive on disk (the first sync of a process, or
    /// another process synced the pair meanwhile), or when a hint names the root or a
    /// `.folioignore`. `memory` keeps the archive and the paths left for a later sync.
    public func run(hints: Set<String>?, memory: inout SyncMemory) throws(SyncError) -> SyncReport {
        var found: QuickFindings?
        if hints == nil && !memory.remembers {
            switch quickLook(memory: &memory) {
            case .inStep(let report):
                #if DEBUG
                assertNothingToDo(report)
                #endif
                return report
            case .differs(let findings):
                #if DEBUG
                assertScopeDecidesAsWhole(findings)
                #endif
                found = findings
            case .unknown: break
            }
        }
        var report = try runOnce(hints: hints, memory: &memory, found: found)
        // A copy that could not be folded against its file as it was may fold against the
        // file this sync changed (or with the versions it recorded): tried again at once,
        // so that one sync converges and the next finds nothing to do.
        for _ in 0..<2 where !options.dryRun && !report.copiesKept.isEmpty {
            let next = try runOnce(hints: nil, memory: &memory)
            let changed = !(next.copies.isEmpty && next.deletions.isEmpty && next.merges.isEmpty && next.folds.isEmpty && next.moves.isEmpty)
            report = report.followed(by: next)
            if !changed { break }
        }
        return report
    }

    /// One pass, in named phases; each says what it needs and leaves for the next. With
    /// `found`, what a quick look found differing, it scans only those paths when the
    /// archive is still the one they were found against.
    func runOnce(hints: Set<String>?, memory: inout SyncMemory, found: QuickFindings? = nil) throws(SyncError) -> SyncReport {
        var run = try prepare(memory: &memory)
        if let hints, run.fromMemory {
            run.scope = ScanScope(hints.union(memory.unsettled), archive: run.archive, ignore: run.ignore)
        } else if let found, run.storage.stamps() == found.archiveStamps, run.archive.entries.count == run.knownArchive.entries.count,
                  let scope = ScanScope(found.paths, archive: run.archive, ignore: run.ignore) {
            // No sync ran since the look (the archive's files are those it compared with,
            // and none had folder entries to add): every other path is as the archive
            // records it, as a watcher's sync trusts, and only what the pass touches changes.
            run.scope = scope
            run.tracksChanges = true
            run.fileCount = found.archivedFiles
            run.indexToPatch = found.index
            run.bases.storesWithoutGathering()
            #if !DEBUG
            // Held twice, the archive would be copied whole at its first change; debug
            // builds keep it to check the changes named against it.
            run.knownArchive = SyncArchive()
            #endif
        }
        var scans = try scan(run)
        var report = try foldConflictCopies(&scans, &run)
        try refuseEmptiedReplicas(scans, &run)
        tidy(&scans, &run, &report)
        let steps = try plan(scans, &run)
        apply(steps, scans, &run, &report)
        try record(&run, &report, scans: scans, memory: &memory)
        // Let go of on another thread: freeing 100,000 entries took 20 ms, which the caller
        // (a command about to exit, often) need not wait for.
        let archive = run.takeArchive()
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(archive) {} }
        return report
    }

    /// The file `STATE/roots`: each replica's device and inode, as the last sync saw them.
    func rootsPath(_ state: RootedFolder) -> RootedPath { state["roots"] }

    /// What `roots` records for a replica now.
    func rootIdentities() -> String? {
        // Both roots were just pinned and listed: one that cannot be looked at now is gone
        // meanwhile, and the sync's next step on it says so; no identities, no comparison.
        guard let a = try? Syscall.identity(of: rootA), let b = try? Syscall.identity(of: rootB) else { return nil }
        return "A \(a.device) \(a.inode)\nB \(b.device) \(b.inode)\n"
    }

    /// Refuses a replica that is no longer the folder the archive was made with (a link
    /// pointed elsewhere, a stick with another folder mounted in its place): its files
    /// would all look deleted, or all new. Nothing was recorded yet: accepted.
    /// A record that cannot be read stops the sync too: the check would be skipped.
    func refuseStrangeRoots(archive: SyncArchive, state stateFolder: RootedFolder) throws(SyncError) {
        guard !archive.entries.isEmpty else { return }
        let recorded: [UInt8]?
        do { recorded = try AtomicFile.contentsIfPresent(rootsPath(stateFolder)) } catch {
            throw SyncError(.stateIO, "cannot read \(rootsPath(stateFolder).path), which tells whether the replicas are the folders synced last time: "
                + FileProblem.advice(error, writing: false) + "; nothing was changed")
        }
        guard let recorded, let now = rootIdentities(), Array(now.utf8) != recorded else { return }
        let lines = String(decoding: recorded, as: UTF8.self).split(separator: "\n"), current = now.split(separator: "\n")
        let changed = zip(lines, current).filter { $0 != $1 }.map { $0.1.hasPrefix("A") ? rootA : rootB }
        throw SyncError(
            .replicaReplaced, "\(changed.joined(separator: " and ")) is not the folder synced last time (another folder is there now, or a link points elsewhere): "
                + "refusing to sync it with \(state)'s archive.",
            goAhead: .init(condition: "If it really is the same replica (restored from a backup, say)", flag: "--allow-mass-delete"))
    }

    /// Records the replicas' identities for ``refuseStrangeRoots(archive:)``; throws when
    /// the disk refuses.
    func recordRoots(state: RootedFolder) throws(SystemError) {
        // Only to spare a write: a record that cannot be read is written afresh, and the
        // write reports a disk that refuses.
        guard let now = rootIdentities(), ((try? AtomicFile.contentsIfPresent(rootsPath(state))) ?? nil) != Array(now.utf8) else { return }
        _ = try AtomicFile.write(Array(now.utf8), to: rootsPath(state), mode: 0o600, replacingOnly: nil)
    }

    /// Refuses a sync that would delete more than half of a side's files (and more than a
    /// handful): a replica left with a few files — the wrong folder, a half-mounted disk —
    /// looks like a mass deletion.
    func refuseMassDeletion(_ steps: [SyncStep], archivedFiles: Int) throws(SyncError) {
        for replica in Replica.allCases {
            let deletions = steps.count { step in
                if case .delete(let path, let side) = step { return side == replica && !path.isFolder }
                return false
            }
            guard deletions > 5 && deletions * 2 > archivedFiles else { continue }
            throw SyncError(
                .massDeletion, "this sync would delete \(deletions) of the \(archivedFiles) files in \(root(replica)), because they are gone from "
                    + "\(root(replica.other)): refusing.", goAhead: .init(condition: "If you really deleted them", flag: "--allow-mass-delete"))
        }
    }

    /// The steps of a sync, and the paths whose content is as archived on both sides but
    /// whose stamps are not (touched), with their stamps now. A path that could not be
    /// read on either side, or in a folder that could not be listed, is not "gone": it is
    /// left out, its archive entry kept. Only the paths a scan found changed, and the
    /// archived paths a scan did not find, are looked at: in most syncs, few.
    static func plan(archive: SyncArchive, a scanA: ReplicaScan, b scanB: ReplicaScan, everyArchivedPath: Bool = false)
        -> (steps: [SyncStep], restamped: [SyncPath: (a: FileStamp, b: FileStamp)], looked: Set<SyncPath>)
    {
        struct Version: Hashable {
            var hash: SHA256.Digest
            var executable: Bool
        }
        var paths = Set(scanA.changed).union(scanB.changed)
        if scanA.isPartial || scanB.isPartial {
            paths.formUnion(scanA.vanished)
            paths.formUnion(scanB.vanished)
        } else if everyArchivedPath || scanA.archived != archive.entries.count || scanB.archived != archive.entries.count {
            for path in archive.entries.keys where scanA.files[path] == nil || scanB.files[path] == nil { paths.insert(path) }
        }
        let blocked = Set(scanA.skipped.keys).union(scanB.skipped.keys)
        // Skipped paths are named as reported: a folder without its trailing `/`.
        func readable(_ path: SyncPath) -> Bool {
            blocked.isEmpty || (!blocked.contains(path.key) && !blocked.contains { path.key.hasPrefix($0 + "/") })
        }
        var base: [SyncPath: Version] = [:], a: [SyncPath: Version] = [:], b: [SyncPath: Version] = [:]
        var ids: (archive: [SyncPath: String], a: [SyncPath: String], b: [SyncPath: String]) = ([:], [:], [:])
        // Sized at once where the archive holds nothing (a first sync: every path new):
        // growing by doubling rehashed 100,000 paths several times over, on one core.
        if archive.entries.isEmpty {
            a.reserveCapacity(min(paths.count, scanA.changed.count))
            b.reserveCapacity(min(paths.count, scanB.changed.count))
        }
        var restamped: [SyncPath: (a: FileStamp, b: FileStamp)] = [:]
        for path in paths where readable(path) {
            let entry = archive.entries[path], fileA = scanA.files[path], fileB = scanB.files[path]
            if let entry, let fileA, let fileB, fileA.hash == entry.hash, fileB.hash == entry.hash,
               fileA.stamp.isExecutable == entry.executable, fileB.stamp.isExecutable == entry.executable {
                restamped[path] = (fileA.stamp, fileB.stamp)
                continue
            }
            if let entry {
                base[path] = Version(hash: entry.hash, executable: entry.executable)
                ids.archive[path] = entry.id
            }
            if let fileA {
                a[path] = Version(hash: fileA.hash, executable: fileA.stamp.isExecutable)
                ids.a[path] = fileA.id
            }
            if let fileB {
                b[path] = Version(hash: fileB.hash, executable: fileB.stamp.isExecutable)
                ids.b[path] = fileB.id
            }
        }
        return (SyncPlan.steps(archive: base, a: a, b: b, ids: ids), restamped, paths)
    }

    /// The steps in the order they run. Copies of files changed on one side only (all
    /// of a first sync, most of a resync) go in parallel batches; every other step, one at
    /// a time. A file where the other side has a folder of that name waits until the
    /// folder is removed; a file in a folder the other side has as a file goes in path
    /// order, after that file's deletion.
    func schedule(_ steps: [SyncStep], _ scans: ReplicaScans)
        -> (copies: [(path: SyncPath, source: Replica)], others: [SyncStep], afterFolders: [SyncStep])
    {
        var copies: [(path: SyncPath, source: Replica)] = []
        var others: [SyncStep] = [], afterFolders: [SyncStep] = []
        for step in steps {
            guard case .copy(let path, let source) = step, !path.isFolder else {
                others.append(step)
                continue
            }
            let target = scans[source.other]
            if target.files[SyncPath(folder: path.relative)] != nil {
                afterFolders.append(step)
            } else if options.dryRun || path.ancestors.contains(where: { target.files[SyncPath(file: $0.relative)] != nil }) {
                others.append(step)
            } else {
                copies.append((path, source))
            }
        }
        return (copies, others, afterFolders)
    }

    /// What the archive knew of each path in `replica`, for its scan.
    static func known(_ archive: SyncArchive, _ replica: Replica) -> (SyncPath) -> (stamp: FileStamp?, hash: SHA256.Digest, id: String?)? {
        { path in
            guard let entry = archive.entries[path] else { return nil }
            return (entry.stamp(in: replica), entry.hash, entry.id)
        }
    }
}
