import FolioFolder
import FolioSystem
import FolioVersions

/// The one-off sync that finds nothing changed, answered without reading the archive:
/// both replicas listed and stamped at once, each entry looked up in the stamp index
/// (``StampIndex``), and every archived path found with the stamp it was recorded with.
/// That is exactly when a whole sync would read nothing, plan nothing and write
/// nothing. When only some paths differ — new, edited, touched, gone — the look names
/// them, and the sync that follows scans only those (``ScanScope``), as a watcher's
/// sync scans what the watcher named: each file is looked at once, not once here and
/// again by a whole scan. At anything else — a temporary of Folio's, a conflict copy,
/// a name to normalize, what only one side's rules hold back, a folder that cannot be
/// listed, more differences than a scope saves — the sync runs whole, as before.
extension SyncEngine {
    /// What a quick look at both replicas found.
    enum QuickLook {
        /// Both as the archive recorded them: the report of a whole sync.
        case inStep(SyncReport)
        /// Only these paths differ from the archive.
        case differs(QuickFindings)
        /// Not certain: the sync goes the whole way.
        case unknown
    }

    /// The paths a quick look found different from the archive (relative, as a watcher's
    /// hints are: files, folders looked at whole), and the stamps of the archive's files
    /// it compared with: a sync trusts the findings only with the archive they were made from.
    struct QuickFindings: Equatable {
        var paths: Set<String>
        var archiveStamps: [FileStamp?]
        /// How many files (not folders) the archive holds.
        var archivedFiles: Int
        /// The stamp index looked with: the sync patches it where it changed the archive.
        var index: StampIndex
    }

    /// The report of a whole sync when the replicas are as the archive recorded them,
    /// nil when that is not certain or they are not (``quickLook(memory:)``).
    func quickCheck(memory: inout SyncMemory) -> SyncReport? {
        if case .inStep(let report) = quickLook(memory: &memory) { return report }
        return nil
    }

    /// Both replicas compared with the stamp index: in step, the paths that differ, or
    /// unknown — no index made for the archive and rules there now, another process
    /// holding the state folder, or anything only a whole scan makes something of. Notes
    /// in `memory` whether the index there is the archive's, so that the sync that follows
    /// writes it only when it is not.
    func quickLook(memory: inout SyncMemory) -> QuickLook {
        memory.stampIndexIsCurrent = false
        guard let stateFolder = try? RootedFolder(state) else { return .unknown }
        // Held while looking, so that no sync changes the replicas and the archive
        // meanwhile; a sync running elsewhere sends this one the whole way (it waits there).
        var lock: StateLock?
        if !options.dryRun {
            guard let held = try? StateLock.acquire(state, wait: .zero) else { return .unknown }
            lock = held
        }
        defer { withExtendedLifetime(lock) {} }
        guard let rules = try? folders.map({ (folder: RootedFolder) throws(SystemError) -> String in
                  String(decoding: try AtomicFile.contentsIfPresent(folder[FolioIgnore.fileName]) ?? [], as: UTF8.self)
              }),
              let bytes = (try? AtomicFile.contentsIfPresent(stateFolder[StampIndex.fileName])) ?? nil
        else { return .unknown }
        let archiveStamps = ArchiveStorage(state: stateFolder).stamps()
        let validity = StampIndex.validity(archiveStamps: archiveStamps, rules: rules, roots: roots)
        guard let index = StampIndex(bytes: bytes, validity: validity) else { return .unknown }
        memory.stampIndexIsCurrent = true
        guard // Leftovers of a killed run, or replicas that are not the folders of last time: the whole way.
              RunRecord(state: stateFolder).tags().isEmpty,
              let identities = rootIdentities(), (try? AtomicFile.contentsIfPresent(rootsPath(stateFolder))) == Array(identities.utf8)
        else { return .unknown }
        let ignore = FolioIgnore(text: rules.a + "\n" + rules.b), own = rules.map { FolioIgnore(text: $0) }
        // Beyond a quarter of the entries, scanning the differences one by one saves little over a whole scan.
        let limit = index.count / 4 + 64
        // The archive, read meanwhile once a look finds a difference; finished while the
        // state folder is held, so that it is the archive the findings were made against.
        let preload = ArchivePreload(ArchiveStorage(state: stateFolder))
        let looks = ConcurrentSlots<ReplicaLook?>.map(2) { position in
            let replica = Replica.allCases[position]
            return Self.lookOver(
                self.folder(replica), replica, index: index, ignore: ignore, own: own[replica], copyNames: self.copyNames, limit: limit, preload: preload)
        }
        memory.preloaded = preload.finish()
        guard let a = looks[0], let b = looks[1] else { return .unknown }
        var differing = Set(a.differing).union(b.differing)
        for look in [a, b] where look.found != index.count {
            guard let gone = index.keys(notMarkedIn: look.marked) else { return .unknown }
            // Named as hints are: a folder without its trailing `/`.
            differing.formUnion(gone.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
        }
        guard differing.isEmpty else {
            return differing.count <= 2 * limit ? .differs(QuickFindings(paths: differing, archiveStamps: archiveStamps, archivedFiles: index.archivedFiles, index: index)) : .unknown
        }
        if !options.dryRun { Trash(state: stateFolder).expire(olderThanDays: 30) }
        var report = SyncReport(copyNames: copyNames)
        report.files = index.archivedFiles
        // Nothing changed: the files that held conflict markers still do.
        report.withConflictMarkers = MarkedFiles(state: stateFolder).paths().sorted()
        return .inStep(report)
    }

    /// What a look over one replica found: the index's entries it found (a flag per
    /// record, and their count) and the paths that differ from them.
    struct ReplicaLook {
        var marked: [Bool]
        var found = 0
        var differing: [String] = []
        /// Started at the first difference.
        let preload: ArchivePreload

        /// The entry at `key` in `index`, marked as found. (Methods, not closures over the
        /// look: a variable a closure changes is boxed, and checked at every access, and
        /// this runs for every file of a replica.)
        mutating func mark(_ key: [UInt8], in index: StampIndex) -> StampIndex.Entry? {
            guard let hit = key.withUnsafeBufferPointer({ index.lookUp($0) }) else { return nil }
            if !marked[hit.number] {
                marked[hit.number] = true
                found += 1
            }
            return hit.entry
        }

        /// Notes `key` (the path of `name`) as differing; false when more than `limit`
        /// differ (a scope would no longer pay), or when the name is new and not plain ASCII
        /// (one to normalize, perhaps: a whole scan does that).
        mutating func note(_ key: [UInt8], name: String, known: Bool, limit: Int) -> Bool {
            guard known || name.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            if differing.isEmpty { preload.start() }
            differing.append(String(decoding: key.last == UInt8(ascii: "/") ? key.dropLast() : key[...], as: UTF8.self))
            return differing.count <= limit
        }
    }

    /// The replica at `root` compared with `index`, listing it as ``ReplicaScan/list``
    /// does: each entry found marked, each path not as recorded (folders as folders,
    /// files with `replica`'s stamp) named — a folder new since the index by itself, as
    /// the scan of a scope lists it whole. Nil at the first entry only a whole scan makes
    /// something of, or when more than `limit` paths differ.
    static func lookOver(
        _ root: RootedFolder, _ replica: Replica, index: StampIndex, ignore: FolioIgnore, own: FolioIgnore, copyNames: ConflictCopyNames, limit: Int,
        preload: ArchivePreload
    ) -> ReplicaLook? {
        var look = ReplicaLook(marked: [Bool](repeating: false, count: index.count), preload: preload)
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
                        // A file as the index has it is all but every file: what it must not
                        // be is looked at after (what the index holds is no temporary, never
                        // synced nor ignored: a scan left those out of the archive).
                        let entry = look.mark(key, in: index)
                        if stamp.isRegularFile, case .file(let a, let b)? = entry, stamp == (replica == .a ? a : b) {
                            guard copyNames.original(of: name) == nil else { return nil }
                            continue
                        }
                        // A temporary of Folio's, live or left over, and a conflict copy: the whole way decides.
                        if ReplicaScan.folioTemporaryTag(name) != nil { return nil }
                        if folder.isEmpty && name == FolioIgnore.fileName { continue }
                        if ReplicaScan.neverSynced(name) { continue }
                        guard let ignored = isIgnored(key, isDirectory: false) else { return nil }
                        if ignored { continue }
                        guard copyNames.original(of: name) == nil else { return nil }
                        guard look.note(key, name: name, known: entry != nil, limit: limit) else { return nil }
                        continue
                    }
                }
                if FolderRules.isIgnoredDirectory(name) { continue }
                guard let ignored = isIgnored(key, isDirectory: true) else { return nil }
                if ignored { continue }
                key.append(UInt8(ascii: "/"))
                let entry = look.mark(key, in: index)
                if entry == .folder {
                    pending.append(key)
                } else {
                    // New (or where a file was): the scope's scan lists it whole.
                    guard look.note(key, name: name, known: entry != nil, limit: limit) else { return nil }
                }
            }
        }
        return look
    }

    /// The table and records of the stamp index of `archive` under the rules `ignore`:
    /// `patching` with the entries at `changed` paths when given with the archive's file
    /// count `files` (a pass scoped to a look's findings), else made from the archive whole.
    static func stampIndexBody(_ archive: SyncArchive, ignore: FolioIgnore, patching: StampIndex?, changed: Set<SyncPath>, files: Int?) -> StampIndex.Body {
        // A path the rules ignore keeps its entry (its base) but no scan finds it: left out.
        let including = { (path: SyncPath) in ignore.rules.isEmpty || !Self.isIgnored(path, by: ignore) }
        if let patching, let files,
           let body = StampIndex.Body(patching: patching, setting: changed.lazy.map { ($0, archive.entries[$0]) }, files: files, including: including) {
            return body
        }
        return StampIndex.Body(archive, including: including)
    }

    /// Writes the stamp index of the archive `run` just saved (or found unchanged), of
    /// `body` (``stampIndexBody(_:ignore:patching:changed:files:)``); whether it was
    /// written. Not flushed: it is checked whole before it is trusted, and one lost only
    /// sends the next sync the whole way.
    func writeStampIndex(_ run: SyncRun, body: StampIndex.Body) -> Bool {
        let validity = StampIndex.validity(archiveStamps: run.storage.stamps(), rules: run.rules, roots: roots)
        let bytes = body.file(validity: validity)
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

    /// Checks a pass scoped to what a quick look found against the whole pass, both run
    /// dry, with no fault planned (a test's fault is for the sync itself): they must
    /// decide alike.
    func assertScopeDecidesAsWhole(_ findings: QuickFindings) {
        var options = self.options
        options.dryRun = true
        options.stateDirectory = state
        guard let engine = try? SyncEngine(rootA, rootB, options: options) else { return }
        func passes() -> (scoped: SyncReport?, whole: SyncReport?) {
            FaultInjection.$current.withValue(nil) {
                var first = SyncMemory.none, second = SyncMemory.none
                return (try? engine.runOnce(hints: nil, memory: &first, found: findings), try? engine.runOnce(hints: nil, memory: &second))
            }
        }
        // A writer may change a replica between the look and the passes, or between the
        // two (the race tests run writers beside the syncs): only passes that differ twice
        // running, with the replicas still as the look found them, are wrong.
        guard case let (scoped?, whole?) = passes(), scoped != whole, case let (again?, wholeAgain?) = passes(), again != wholeAgain else { return }
        var memory = SyncMemory.none
        guard case .differs(let now) = FaultInjection.$current.withValue(nil, operation: { engine.quickLook(memory: &memory) }), now == findings else { return }
        assertionFailure("a pass scoped to \(findings.paths.sorted()) decided otherwise than the whole pass:\nscoped: \(again)\nwhole: \(wholeAgain)")
    }
    #endif
}
