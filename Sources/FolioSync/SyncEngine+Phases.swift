import FolioFolder
import FolioSystem
import FolioVersions

/// The phases of one sync pass, in order: prepare (state, lock, trash expiry, ignore
/// rules, archive) → scan → fold (other tools' conflict copies) → guard (emptied
/// replicas, mass deletions) → tidy (what cannot be synced as it is) → plan → apply →
/// record. A new step goes in the phase whose job it shares.
extension SyncEngine {
    /// The state folder locked (one process at a time appends to its bases and archive;
    /// the lock also makes the folder, 0700, as it holds copies of every text file), the
    /// trash expired, this run listed, the archive and the ignore rules read.
    func prepare(memory: inout SyncMemory) throws(SyncError) -> SyncRun {
        var lock: StateLock?
        let endedRuns: Set<UInt32>
        if !options.dryRun {
            do { lock = try StateLock.acquire(state) } catch { throw SyncError(lockFailure: error) }
        }
        let stateFolder = try openState()
        let storage = ArchiveStorage(state: stateFolder)
        // The archive this process saved, while the files on disk are still those it left.
        let held = memory.archive.flatMap { $0.state == state && $0.stamps == storage.stamps() ? $0 : nil }
        // Taken, not shared: an archive held in two places is copied whole at its first
        // change. A dry run changes nothing, and leaves it.
        if !options.dryRun { memory.archive = nil }
        if !options.dryRun {
            // Days-old trash goes at a whole sync: hinted ones, every few seconds, need not look.
            if held == nil { Trash(state: stateFolder).expire(olderThanDays: 30) }
            do { endedRuns = try RunRecord(state: stateFolder).begin() } catch {
                throw SyncError(.stateIO, "cannot write the state folder \(state): " + FileProblem.advice(any: error, writing: true) + "; nothing was changed")
            }
        } else {
            endedRuns = []
        }
        var archive: SyncArchive, loaded: ArchiveStorage.Loaded
        // Read by the quick look just before, and still the archive on disk: not read again.
        let preloaded = memory.preloaded.flatMap { $0.stamps == storage.stamps() ? $0 : nil }
        memory.preloaded = nil
        if let held {
            (archive, loaded) = (held.archive, held.loaded)
        } else if let preloaded {
            (archive, loaded) = (preloaded.archive, preloaded.loaded)
        } else {
            (archive, loaded) = try storage.load()
        }
        // Each replica's `.folioignore` is its own (never copied). What either names is
        // ignored on both: a rule added on one side must not look like a deletion of those
        // files to the other; what the other side's rules alone hold back is reported.
        // Read only as a regular file below the root: a link or a FIFO there is no rule file.
        // One that cannot be read stops the sync, as Syncthing does: taken for "ignore
        // nothing", it would copy (or seem to delete) every file its rules hold back.
        let rules = try folders.map { (folder: RootedFolder) throws(SyncError) -> String in
            let path = folder[FolioIgnore.fileName]
            do throws(SystemError) { return String(decoding: try AtomicFile.contentsIfPresent(path) ?? [], as: UTF8.self) } catch where error.isNotAFileToRead {
                return ""
            } catch {
                // Naming the rule file in itself is no way out: the advice for a permission says what is.
                let advice = error.code == Syscall.permissionDenied
                    ? Syscall.describe(error.code) + ". Give your user read permission (chmod u+r, or ask its owner), or remove the file to sync without its rules"
                    : FileProblem.advice(error, writing: false, then: "sync again")
                throw SyncError(.fileIO, "cannot read \(TextEscaping.name(path.path)), so which files it leaves out is not known: "
                    + advice + "; nothing was changed")
            }
        }
        // An archive from memory is compared with its entries before the pass changed them
        // (``SyncRun/before``): kept whole beside it, each change would copy it whole.
        var knownArchive = archive
        #if !DEBUG
        if held != nil { knownArchive = SyncArchive() }
        #endif
        if held == nil { archive.addFolderEntriesIfMissing() }
        let bases: BaseStore
        if held != nil, let hashes = memory.storedHashes {
            if !options.dryRun { memory.storedHashes = nil }
            bases = BaseStore(state: stateFolder, known: hashes)
        } else {
            let entries = archive.entries
            bases = BaseStore(state: stateFolder, known: Set(entries.values.map(\.hash)))
        }
        var run = SyncRun(
            lock: lock, state: stateFolder, endedRuns: endedRuns, storage: storage, loaded: loaded, knownArchive: knownArchive, archive: archive, rules: rules,
            ignore: FolioIgnore(text: rules.a + "\n" + rules.b), ownIgnore: rules.map { FolioIgnore(text: $0) }, bases: bases, history: VersionHistory(state: stateFolder, contents: bases))
        run.fromMemory = held != nil
        run.tracksChanges = held != nil
        run.fileCount = held?.fileCount
        // Taken by this sync: what changes after it is offered again, read again.
        run.offered = memory.offered
        memory.offered = [:]
        return run
    }

    /// Both replicas listed at once, then what changed in either read with both cores;
    /// refused when a root could be listed only in part, or is no longer the same folder.
    func scan(_ run: SyncRun) throws(SyncError) -> ReplicaScans {
        let known = run.tracksChanges ? run.archive : run.knownArchive, ignore = run.ignore, ownIgnore = run.ownIgnore, endedRuns = run.endedRuns, scope = run.scope
        let listings = ConcurrentSlots<Result<ReplicaScan, SyncError>>.map(2) { index in
            let replica = Replica.allCases[index]
            return Result { () throws(SyncError) in
                try ReplicaScan.list(
                    self.folder(replica), ignoring: ignore, own: ownIgnore[replica], expectedCount: known.entries.count, endedRuns: endedRuns,
                    renamingToNFC: !self.options.dryRun, scope: scope, copyNames: self.copyNames, known: Self.known(known, replica))
            }
        }
        let listed = try PerReplica { replica throws(SyncError) in try listings[replica.position].get() }
        // A root listed only in part would make every file not yet listed look deleted.
        for replica in Replica.allCases {
            if let reason = listed[replica].skipped[""] {
                throw SyncError(.replicaMissing, "\(root(replica)): \(reason); nothing was changed")
            }
        }
        // Both read at once: the work is shared between the cores whatever its side.
        var scans = [listed.a, listed.b]
        ReplicaScan.readPending(&scans, roots: [folderA, folderB], offered: [run.offered[.a] ?? [:], run.offered[.b] ?? [:]])
        if let scope {
            for index in scans.indices { scans[index].complete(scope: scope, archive: run.archive, replica: Replica.allCases[index]) }
        }
        if !options.allowMassDelete { try refuseStrangeRoots(archive: run.archive, state: run.state) }
        return ReplicaScans(a: scans[0], b: scans[1])
    }

    /// Syncthing's and Dropbox's conflict copies, new since the last sync, folded back
    /// first; the report starts with what that did.
    func foldConflictCopies(_ scans: inout ReplicaScans, _ run: inout SyncRun) throws(SyncError) -> SyncReport {
        let (folded, keptCopies) = try foldConflictCopies(
            &scans, archive: run.archive, state: run.state, bases: run.bases, history: run.history, ignore: run.ignore)
        var report = SyncReport(copyNames: copyNames)
        for copy in folded { report.record(.folded(copy: copy)) }
        for (copy, reason) in keptCopies.sorted(by: { $0.key < $1.key }) { report.record(.keptCopy(copy, reason: reason)) }
        return report
    }

    /// Refused: a replica empty of files (empty folders do not count) where the archive
    /// had some, unless `allowMassDelete`. Counts the archive's files for the mass-delete
    /// guard in ``plan(_:_:)`` too.
    func refuseEmptiedReplicas(_ scans: ReplicaScans, _ run: inout SyncRun) throws(SyncError) {
        run.archivedFiles = run.fileCount ?? run.archive.entries.keys.count { !$0.isFolder }
        let archivedFiles = run.archivedFiles
        for (replica, scan) in [(Replica.a, scans.a), (.b, scans.b)]
        // A file it could not read is no sign of an empty replica: it is there, unread.
        where archivedFiles > 0 && !options.allowMassDelete && !scan.files.contains(where: { path, _ in !path.isFolder })
            && !scan.skipped.keys.contains(where: { !$0.isEmpty && !scan.passedOver.contains($0) }) {
            throw SyncError(
                .massDeletion, "\(root(replica)) is empty, but it held \(archivedFiles) files at the last sync: refusing to delete them "
                    + "from \(root(replica.other)).", goAhead: .init(condition: "If you really emptied it", flag: "--allow-mass-delete"))
        }
    }

    /// What cannot be synced as it is, set apart and reported: a file here where a folder
    /// is there, Folio's own leftover temporary files (into the trash), names that differ
    /// only by case; and what the scans skipped or renamed.
    func tidy(_ scans: inout ReplicaScans, _ run: inout SyncRun, _ report: inout SyncReport) {
        separateFilesFromFolders(&scans, archive: run.archive, into: &report)
        for path in scans.a.heldBack { report.record(.heldBack(ReplicaPath(.a, path.key))) }
        for path in scans.b.heldBack { report.record(.heldBack(ReplicaPath(.b, path.key))) }
        report.sortHeldBack()
        if !options.dryRun {
            for (replica, scan) in [(Replica.a, scans.a), (.b, scans.b)] {
                // Into the trash, not unlinked: were a name ever mistaken for Folio's, nothing is lost.
                for path in scan.staleTemporaries {
                    // A leftover that cannot be looked at or moved now stays, its run kept listed: tried again at the next sync, and nothing of the user's is touched.
                    guard let stamp = try? FileStamp.of(folder(replica)[path]),
                          (try? Trash(state: run.state).move(path, from: folder(replica), replica: replica, expected: stamp, hash: nil)) == true
                    else {
                        if let tag = ReplicaScan.folioTemporaryTag(String(path.split(separator: "/").last ?? "")) { run.unmovedRuns.insert(tag) }
                        continue
                    }
                    report.record(.removedTemporary(ReplicaPath(replica, path)))
                }
            }
        }
        // Names that differ only by case cannot both live on a case-insensitive disk:
        // reported and left alone, never renamed or overwritten. Only a path with capitals
        // or non-ASCII letters can clash: group those (few) by their lowercase form, with
        // the lowercase path itself when a replica has it.
        var byFoldedName: [SyncPath: Set<SyncPath>] = [:]
        for path in scans.a.caseFoldable + scans.b.caseFoldable + caseTwinsInArchive(scans, run.archive) {
            let folded = SyncPath(key: path.key.lowercased())
            byFoldedName[folded, default: []].insert(path)
            if scans.a.files[folded] != nil || scans.b.files[folded] != nil { byFoldedName[folded]!.insert(folded) }
        }
        for (_, paths) in byFoldedName where paths.count > 1 {
            run.clashed = true
            for path in paths {
                run.remember(path)
                report.record(.skipped(replica: nil, path: path, reason: "names that differ only by case (\(paths.sorted().map(\.key).joined(separator: ", "))): left alone; rename one", byDesign: false))
                scans.a.files[path] = nil
                scans.b.files[path] = nil
                run.archive.entries[path] = nil
            }
        }
        report.hashed = scans.a.hashed + scans.b.hashed
        for (replica, scan) in [(Replica.a, scans.a), (.b, scans.b)] {
            for (path, reason) in scan.skipped { report.record(.skipped(replica: replica, path: SyncPath(key: path), reason: reason, byDesign: scan.passedOver.contains(path))) }
        }
        for (replica, scan) in [(Replica.a, scans.a), (.b, scans.b)] {
            for path in scan.normalized { report.record(.normalized(ReplicaPath(replica, path))) }
        }
        // From here on only the paths looked at are asked about, and the archive changes.
        scans.a.files.dropFallback()
        scans.b.files.dropFallback()
    }

    /// The steps the decision table gives (``SyncPlan``), refused when they would delete
    /// most of a side; files touched but not changed get their new stamps recorded, so
    /// they are not read again next time.
    func plan(_ scans: ReplicaScans, _ run: inout SyncRun) throws(SyncError) -> [SyncStep] {
        // Names taken out for a clash upset the scans' counts of archived paths: then every
        // archived path is looked at.
        var (steps, restamped, looked) = Self.plan(archive: run.archive, a: scans.a, b: scans.b, everyArchivedPath: run.clashed)
        for path in looked { run.remember(path) }
        // A path a rule ignores is absent from both scans, not gone: its archive entry
        // (its base) stays, so that when the rule goes, an edit made meanwhile goes
        // across as an edit, not as a conflict.
        let ignore = run.ignore
        steps.removeAll { step in
            guard case .forget(let path) = step else { return false }
            return Self.isIgnored(path, by: ignore)
        }
        if !options.allowMassDelete { try refuseMassDeletion(steps, archivedFiles: run.archivedFiles) }
        for (path, stamps) in restamped {
            run.archive.entries[path]?.stampA = stamps.a
            run.archive.entries[path]?.stampB = stamps.b
        }
        run.archive._checkInvariants()
        return steps
    }

    /// Whether `path` or a folder above it is one `ignore` names.
    static func isIgnored(_ path: SyncPath, by ignore: FolioIgnore) -> Bool {
        let isFolder = path.isFolder
        let parts = path.relative.split(separator: "/")
        var walked = ""
        for (index, part) in parts.enumerated() {
            walked += walked.isEmpty ? String(part) : "/" + part
            if ignore.ignores(walked, isDirectory: index < parts.count - 1 || isFolder) { return true }
        }
        return false
    }

    /// The steps carried out (``Applier``): new files copied in a batch, the rest one by
    /// one, replacements committed together, emptied folders removed, then what waited
    /// for them.
    func apply(_ steps: [SyncStep], _ scans: ReplicaScans, _ run: inout SyncRun, _ report: inout SyncReport) {
        var applier = Applier(
            engine: self, state: run.state, bases: run.bases, history: run.history, scans: scans, archive: run.takeArchive(), report: report)
        applier.tracksChanges = run.tracksChanges
        let (copies, others, afterFolders) = schedule(steps, scans)
        // The bases of the merges, found in the index in one pass.
        run.bases.locate(Set(steps.compactMap { step in
            if case .merge(let path) = step { return applier.archive.entries[path]?.hash }
            return nil
        }))
        applier.copyFiles(copies) { done in options.progress?(done, steps.count) }
        for (index, step) in others.enumerated() {
            applier.apply(step)
            if index % 100 == 99 { options.progress?(copies.count + index + 1, steps.count) }
        }
        applier.commitReplacements()
        applier.removeFolders()
        for step in afterFolders { applier.apply(step) }
        applier.commitReplacements()
        if steps.count >= 100 { options.progress?(steps.count, steps.count) }
        (run.archive, report) = (applier.archive, applier.report)
        // Beyond the planned paths, the steps record what they made: a conflict copy, say.
        for (path, was) in applier.changedEntries { run.remember(path, was: was) }
        run.fileCount = run.countFiles()
        assert(run.fileCount == run.archive.entries.keys.count { !$0.isFolder }, "the archive's files were miscounted from the changes")
        // In path order, as the steps were planned (new files were copied in a batch of their own).
        report.sortCopiesAndDeletions()
        report.files = run.fileCount ?? 0
        run.archive._checkInvariants()
    }

    /// What the pass did, made durable: the archive (not written again when unchanged),
    /// after a flush of the files and bases it names; the roots' identities; the run
    /// taken off the list; the versions seen, pruned now and then.
    func record(_ run: inout SyncRun, _ report: inout SyncReport, scans: ReplicaScans, memory: inout SyncMemory) throws(SyncError) {
        defer { withExtendedLifetime(run.lock) {} }
        let marked = markedFiles(run, scans, report)
        report.withConflictMarkers = marked.now.filter { report.conflicts[$0] == nil }.sorted()
        guard !options.dryRun else { return }
        // Best effort, as the run list: unsaved, the next sync that reads the file says it again.
        try? MarkedFiles(state: run.state).save(marked.now, previous: marked.before)
        // Only what the pass looked at and set can have changed in a pass that tracks its
        // changes (an archive from memory, or one scoped to a quick look's findings; an
        // archive read from disk for a whole pass may have had folder entries added).
        // A first sync writes a snapshot: its lines (an entry each) would only be counted.
        let changes = run.tracksChanges
            ? ArchiveStorage.changes(run.archive, before: run.before, touched: run.touched, known: run.knownArchive)
            : run.loaded.savesSnapshot ? [] : ArchiveStorage.changes(run.archive, known: run.knownArchive)
        let changed = run.tracksChanges || !run.loaded.savesSnapshot ? !changes.isEmpty : run.archive.entries != run.knownArchive.entries
        var loaded = run.loaded
        var basesAreDurable = false
        // A one-off sync leaves the stamp index for the next one's quick look (a watcher's
        // syncs do not: each would write it; the next one-off sync does). Its table is
        // made on another thread while this one flushes the disk and saves the archive.
        let writesIndex = !memory.remembers && (changed || !memory.stampIndexIsCurrent)
        let indexing = writesIndex ? ConcurrentSlots<StampIndex.Body>.start(1) {
            [archive = run.archive, ignore = run.ignore, patching = run.indexToPatch, changed = run.touched, files = run.fileCount] _ in
            Self.stampIndexBody(archive, ignore: ignore, patching: patching, changed: changed, files: files)
        } : nil
        if changed {
            do throws(SystemError) {
                try run.bases.flush()
                // Flushed on another thread while this one makes the archive's bytes; the
                // archive is written only once the copies it records are on disk.
                let root = run.state.root
                let flushing = ConcurrentSlots<SystemError?>.start(1) { _ in
                    do throws(SystemError) { try AtomicFile.flushFileSystem(containing: root) } catch { return error }
                    return nil
                }
                let save = ArchiveStorage.prepareSave(run.archive, changes: changes, loaded: run.loaded)
                if let failure = flushing.wait()[0] { throw failure }
                basesAreDurable = true
                loaded = try run.storage.commit(save, loaded: run.loaded)
            } catch {
                // What was copied is still reported (and the sync exits 3): the files are
                // written; without the archive, the next sync compares them afresh.
                report.record(stateNotWritten: "cannot save the archive in \(state): " + FileProblem.advice(error, writing: true)
                    + " (the files above were synced; the next sync compares them afresh)")
                return
            }
        }
        if memory.remembers {
            memory.archive = SyncMemory.Archive(state: state, archive: run.archive, loaded: loaded, stamps: run.storage.stamps(), fileCount: run.fileCount)
            memory.storedHashes = run.bases.hashes()
            memory.unsettled = unsettled(run, scans, report, previously: memory.unsettled)
        }
        do { try recordRoots(state: run.state) } catch {
            // The files are synced; only the guard against a replaced replica is without its record.
            if report.stateProblem == nil {
                report.record(stateNotWritten: "cannot record the replicas' identities in \(state): " + FileProblem.advice(error, writing: true)
                    + " (the files above were synced; until it is recorded, a folder put in a replica's place is not noticed)")
            }
        }
        // A run that ends here leaves no temporary file: it need not be listed any more.
        // Best effort: a run left on the list only has its (absent) temporaries looked for
        // by the next sync, which finds none.
        try? RunRecord(state: run.state).finish(unmoved: run.unmovedRuns)
        if let indexing { memory.stampIndexIsCurrent = writeStampIndex(run, body: indexing.wait()[0]) }
        // The versions seen, after the contents they name, keeping every base the archive names.
        do {
            try run.history.pruneIfGrown(now: now, keeping: Set(run.archive.entries.values.map(\.hash)), contentsAreDurable: basesAreDurable)
        } catch {
            report.record(stateNotWritten: "cannot save the history of versions in \(state): " + FileProblem.advice(error, writing: true))
        }
    }

    /// The files holding conflict markers before this pass (as listed in the state) and
    /// after it: those it read or wrote with markers (a conflict it marked in the file),
    /// and those listed before that it neither read again nor saw go.
    func markedFiles(_ run: SyncRun, _ scans: ReplicaScans, _ report: SyncReport) -> (before: Set<SyncPath>, now: Set<SyncPath>) {
        let before = MarkedFiles(state: run.state).paths()
        let found = scans.a.marked.union(scans.b.marked).union(report.conflicts.filter { $0.value == nil }.keys)
        let reread = before.isEmpty ? [] : Set(scans.a.changed + scans.b.changed)
        // A dry run's archive is last sync's: a file it found is there in a replica.
        let now = MarkedFiles.after(
            previous: before, reread: reread.contains,
            present: { path in run.archive.entries[path] != nil || (self.options.dryRun && found.contains(path)) }, found: found)
        return (before, now)
    }

    /// The paths this pass left for a later one: a file present but not recorded, an
    /// entry without a stamp in a replica (it is read again when next looked at), what
    /// it skipped (could not read, or left alone: a folder that still holds files, names
    /// that differ only by case), which a whole pass would look at again. A hinted pass
    /// looks only at what it looked at and what was left before; a whole one at everything.
    func unsettled(_ run: SyncRun, _ scans: ReplicaScans, _ report: SyncReport, previously: Set<String>) -> Set<String> {
        var left: Set<String> = []
        func consider(_ path: SyncPath) {
            if let entry = run.archive.entries[path] {
                if entry.stampA == nil || entry.stampB == nil { left.insert(path.relative) }
            } else if scans.a.files[path] != nil || scans.b.files[path] != nil {
                left.insert(path.relative)
            }
        }
        if run.scope != nil {
            for path in run.touched { consider(path) }
            for path in previously { consider(SyncPath(file: path)); consider(SyncPath(folder: path)) }
        } else {
            for (path, entry) in run.archive.entries where entry.stampA == nil || entry.stampB == nil { left.insert(path.relative) }
            for scan in [scans.a, scans.b] {
                for path in scan.files.keys where run.archive.entries[path] == nil { left.insert(path.relative) }
            }
        }
        for scan in [scans.a, scans.b] { left.formUnion(scan.skipped.keys.filter { !$0.isEmpty }) }
        left.formUnion(report.skips.keys.map { $0.path.relative }.filter { !$0.isEmpty })
        return left
    }

    /// The archived paths whose names differ only by case from a path new in a hinted
    /// pass: a whole scan lists them among ``ReplicaScan/caseFoldable`` whatever changed,
    /// a hinted one only when looked at. None for whole scans, or when nothing is new.
    func caseTwinsInArchive(_ scans: ReplicaScans, _ archive: SyncArchive) -> [SyncPath] {
        guard scans.a.isPartial || scans.b.isPartial else { return [] }
        let new = Set((scans.a.changed + scans.b.changed).filter { archive.entries[$0] == nil }.map { $0.key.lowercased() })
        guard !new.isEmpty else { return [] }
        return archive.entries.keys.filter { ReplicaScan.mayClashByCase($0.key) && new.contains($0.key.lowercased()) }
    }
}
