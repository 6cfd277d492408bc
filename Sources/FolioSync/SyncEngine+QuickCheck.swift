import FolioFolder
import FolioSystem
import FolioVersions

/// The one-off sync that finds nothing changed, answered without reading the archive:
/// both replicas listed and stamped at once, each entry looked up in the stamp index
/// (``StampIndex``), and every archived path found with the stamp it was recorded with.
/// That is exactly when a whole sync would read nothing, plan nothing and write
/// nothing; at the first entry that is anything else — new, edited, gone, touched,
/// skipped, held back, a leftover, a conflict copy, a name to normalize — the sync
/// runs whole, as before.
extension SyncEngine {
    /// The report of a whole sync when the replicas are as the archive recorded them,
    /// nil when that is not certain: no index made for the archive and rules there
    /// now, another process holding the state folder, or any entry that differs. Notes
    /// in `memory` whether the index there is the archive's, so that the whole sync
    /// that follows a nil writes it only when it is not.
    func quickCheck(memory: inout SyncMemory) -> SyncReport? {
        memory.stampIndexIsCurrent = false
        guard let stateFolder = try? RootedFolder(state) else { return nil }
        // Held while looking, so that no sync changes the replicas and the archive
        // meanwhile; a sync running elsewhere sends this one the whole way (it waits there).
        var lock: StateLock?
        if !options.dryRun {
            guard let held = try? StateLock.acquire(state, wait: .zero) else { return nil }
            lock = held
        }
        defer { withExtendedLifetime(lock) {} }
        guard let rules = try? folders.map({ (folder: RootedFolder) throws(SystemError) -> String in
                  String(decoding: try AtomicFile.contentsIfPresent(folder[FolioIgnore.fileName]) ?? [], as: UTF8.self)
              }),
              let bytes = (try? AtomicFile.contentsIfPresent(stateFolder[StampIndex.fileName])) ?? nil
        else { return nil }
        let validity = StampIndex.validity(archiveStamps: ArchiveStorage(state: stateFolder).stamps(), rules: rules, roots: roots)
        guard let index = StampIndex(bytes: bytes, validity: validity) else { return nil }
        memory.stampIndexIsCurrent = true
        guard // Leftovers of a killed run, or replicas that are not the folders of last time: the whole way.
              RunRecord(state: stateFolder).tags().isEmpty,
              let identities = rootIdentities(), (try? AtomicFile.contentsIfPresent(rootsPath(stateFolder))) == Array(identities.utf8)
        else { return nil }
        let ignore = FolioIgnore(text: rules.a + "\n" + rules.b), own = rules.map { FolioIgnore(text: $0) }
        let matched = ConcurrentSlots<Int?>.map(2) { position in
            let replica = Replica.allCases[position]
            return Self.matchedEntries(self.folder(replica), replica, index: index, ignore: ignore, own: own[replica], copyNames: self.copyNames)
        }
        guard matched.allSatisfy({ $0 == index.count }) else { return nil }
        if !options.dryRun { Trash(state: stateFolder).expire(olderThanDays: 30) }
        var report = SyncReport(copyNames: copyNames)
        report.files = index.archivedFiles
        // Nothing changed: the files that held conflict markers still do.
        report.withConflictMarkers = MarkedFiles(state: stateFolder).paths().sorted()
        return report
    }

    /// How many entries of `index` the replica at `root` holds as recorded (folders as
    /// folders, files with `replica`'s stamp), listing it as ``ReplicaScan/list`` does;
    /// nil at the first entry a whole scan would make anything of.
    static func matchedEntries(_ root: RootedFolder, _ replica: Replica, index: StampIndex, ignore: FolioIgnore, own: FolioIgnore, copyNames: ConflictCopyNames) -> Int? {
        var matched = 0
        var pending: [[UInt8]] = [[]]
        var key: [UInt8] = []
        key.reserveCapacity(512)
        // Whether `path` is left out by the rules as a scan leaves it: nil when only the
        // other side's rules hold it back (a scan reports that: the whole way).
        func isIgnored(_ key: [UInt8], isDirectory: Bool) -> Bool? {
            guard !ignore.rules.isEmpty else { return false }
            let path = String(decoding: key, as: UTF8.self)
            guard ignore.ignores(path, isDirectory: isDirectory) else { return false }
            return own.ignores(path, isDirectory: isDirectory) ? true : nil
        }
        func lookUp() -> StampIndex.Entry? { key.withUnsafeBufferPointer { index.entry($0) } }
        while let folder = pending.popLast() {
            // A folder's key ends in `/`; the path opened does not.
            let relative = String(decoding: folder.dropLast(folder.isEmpty ? 0 : 1), as: UTF8.self)
            let full = root[relative]
            guard let dir = try? full.openDirectoryStream() else { return nil }
            defer { Syscall.closeDirectory(dir) }
            let fd = Syscall.descriptor(of: dir)
            while true {
                let next: (name: String, type: EntryType)?
                do { next = try Syscall.nextEntry(dir, path: full.path) } catch { return nil }
                guard let (name, type) = next else { break }
                guard type != .invalidName else { return nil }
                // Refilled, not assigned: `key = folder` shared the folder's buffer, and
                // the append then copied it, an allocation for every entry.
                key.removeAll(keepingCapacity: true)
                key += folder
                key += name.utf8
                var isDirectory = type == .directory
                if !isDirectory {
                    guard let stamp = try? FileStamp.of(name, in: fd, displayPath: String(decoding: key, as: UTF8.self)) else { return nil }
                    if stamp.isDirectory {
                        isDirectory = true
                    } else {
                        // A temporary of Folio's, live or left over, and a conflict copy: the whole way decides.
                        if ReplicaScan.folioTemporaryTag(name) != nil { return nil }
                        if folder.isEmpty && name == FolioIgnore.fileName { continue }
                        if ReplicaScan.neverSynced(name) { continue }
                        guard let ignored = isIgnored(key, isDirectory: false) else { return nil }
                        if ignored { continue }
                        guard stamp.isRegularFile, copyNames.original(of: name) == nil,
                              case .file(let a, let b)? = lookUp(), stamp == (replica == .a ? a : b)
                        else { return nil }
                        matched += 1
                        continue
                    }
                }
                if FolderRules.isIgnoredDirectory(name) { continue }
                guard let ignored = isIgnored(key, isDirectory: true) else { return nil }
                if ignored { continue }
                key.append(UInt8(ascii: "/"))
                guard lookUp() == .folder else { return nil }
                matched += 1
                pending.append(key)
            }
        }
        return matched
    }

    /// Writes the stamp index of the archive `run` just saved (or found unchanged);
    /// whether it was written. Not flushed: it is checked whole before it is trusted,
    /// and one lost only sends the next sync the whole way.
    func writeStampIndex(_ run: SyncRun) -> Bool {
        let validity = StampIndex.validity(archiveStamps: run.storage.stamps(), rules: run.rules, roots: roots)
        let ignore = run.ignore
        // A path the rules ignore keeps its entry (its base) but no scan finds it: left out.
        let bytes = StampIndex.serialized(run.archive, validity: validity) { ignore.rules.isEmpty || !Self.isIgnored($0, by: ignore) }
        return (try? AtomicFile.write(bytes, to: run.state[StampIndex.fileName], mode: 0o600, durable: false, replacingOnly: nil)) == true
    }

    #if DEBUG
    /// Checks a quick answer against the whole sync, run dry: it must find nothing to do.
    func assertNothingToDo(_ quick: SyncReport) {
        var options = self.options
        options.dryRun = true
        options.stateDirectory = state
        var memory = SyncMemory.none
        guard let engine = try? SyncEngine(rootA, rootB, options: options), let whole = try? engine.runOnce(hints: nil, memory: &memory) else { return }
        let nothingToDo = whole.copies.isEmpty && whole.deletions.isEmpty && whole.moves.isEmpty && whole.merges.isEmpty && whole.conflicts.isEmpty
            && whole.folds.isEmpty && whole.copiesKept.isEmpty && whole.skips.isEmpty && whole.heldBackPaths.isEmpty && whole.normalizations.isEmpty && whole.hashed == 0
            && whole.files == quick.files && whole.withConflictMarkers == quick.withConflictMarkers
        // A writer may have changed a replica since the quick look (the race tests run
        // writers beside the syncs): only a quick look that, taken again now, still finds
        // the replicas in step is wrong.
        var again = SyncMemory.none
        assert(nothingToDo || engine.quickCheck(memory: &again) == nil,
               "the quick check found the replicas in step, but a whole sync would do something: \(whole)")
    }
    #endif
}
