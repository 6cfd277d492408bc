import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem

/// Carries out a sync's steps, one path at a time, keeping the archive and the report.
struct Applier {
    let engine: SyncEngine
    let bases: BaseStore
    /// The versions seen, kept in the pair's history as they are stored as bases.
    var history: VersionHistory? = nil
    var scanA: ReplicaScan
    var scanB: ReplicaScan
    var archive: SyncArchive
    var report: SyncReport
    /// Folders to remove once everything in them has been dealt with.
    var folderRemovals: [(path: String, replica: Replica)] = []
    /// Replacements written to temporary files, renamed by ``commitReplacements()`` after
    /// one flush of them all: (replica, path, temporary file, stamp the scan saw, the
    /// archive entry before this sync touched the path).
    /// Conflict copies folded into their files, trashed by ``finishFolds()``.
    var pendingFolds: [FoldJournal.Entry] = []
    /// The folds a killed sync had begun (see ``FoldJournal``).
    var unfinishedFolds = FoldJournal()
    /// Folders of each replica (A, B) found to be real folders, not links, in this sync.
    var realFolders: [Set<String>] = [[], []]
    var replacements: [(replica: Replica, path: String, temporary: String, expected: FileStamp, before: SyncArchive.Entry?, hash: SHA256.Digest)] = []

    func scanned(_ replica: Replica) -> ReplicaScan { replica == .a ? scanA : scanB }
    func full(_ replica: Replica, _ path: String) -> String { engine.root(replica) + "/" + path }

    mutating func apply(_ step: SyncStep) {
        if let path = step.path, ReplicaScan.isFolder(path) { return applyToFolder(step) }
        switch step {
        case .agree(let path):
            guard let a = scanA.files[path], let b = scanB.files[path] else { return }
            if !engine.options.dryRun {
                guard let bytes = read(.a, path) else { return }
                storeBase(bytes, hash: a.hash, at: path)
            }
            record(path, hash: a.hash, stampA: a.stamp, stampB: b.stamp)
        case .forget(let path):
            archive.entries[path] = nil
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
    mutating func moveByID(_ from: String, to: String, on replica: Replica) {
        report.moved.append("\(from) → \(to)")
        guard !engine.options.dryRun, let file = scanned(replica).files[from], insideRoot(replica, from), insideRoot(replica, to),
              let base = archive.entries[from]
        else { return }
        guard renamed(from, to: to, on: replica, expected: file.stamp), let stamp = try? FileStamp.of(full(replica, to)) else { return }
        // The file is at its new name on both sides now; the base goes with it.
        var moved = file
        moved.stamp = stamp
        if replica == .a {
            scanA.files[from] = nil
            scanA.files[to] = moved
        } else {
            scanB.files[from] = nil
            scanB.files[to] = moved
        }
        archive.entries[from] = nil
        // The stamp vouches for the base only if the file still holds it; an edited file
        // gets none, so that, were the merge below to give up, the next scan reads it
        // again instead of taking the edit for the base.
        var entry = base
        let vouched = file.hash == base.hash ? stamp : nil
        if replica == .a { entry.stampA = vouched } else { entry.stampB = vouched }
        archive.entries[to] = entry
        if let step = SyncPlan.step(to, base: base.hash, a: scanA.files[to]?.hash, b: scanB.files[to]?.hash) { apply(step) }
    }

    /// Renames `from` to `to` on `replica` if `from` still has the stamp the scan saw and
    /// `to` is free; otherwise reports why and leaves both alone.
    mutating func renamed(_ from: String, to: String, on replica: Replica, expected: FileStamp) -> Bool {
        let source = full(replica, from), target = full(replica, to)
        guard (try? FileStamp.of(source)) == expected, (try? FileStamp.of(target)) == nil else {
            report.changedDuringSync.append(from)
            return false
        }
        do {
            try AtomicFile.makeDirectories(AtomicFile.parent(of: target))
            // A file created at `to` since the check stays: the rename fails rather than replace it.
            do { try Syscall.renameWithoutReplacing(source, to: target) } catch where Syscall.renameFlagsUnsupported.contains(error.code) {
                try Syscall.rename(source, to: target)
            }
            return true
        } catch where error.code == Syscall.alreadyExists {
            report.changedDuringSync.append(from)
            return false
        } catch {
            report.skipped["\(replica.rawValue):\(from)"] = "cannot rename: \(error)"
            return false
        }
    }

    /// Renames `from` to `to` on `replica`, as the other side did; an edit made there
    /// meanwhile goes along and is copied to the other side.
    mutating func move(_ from: String, to: String, on replica: Replica, edited: Bool) {
        report.moved.append("\(from) → \(to)")
        guard !engine.options.dryRun, let file = scanned(replica).files[from], let moved = scanned(replica.other).files[to],
              insideRoot(replica, from), insideRoot(replica, to)
        else { return }
        let target = full(replica, to)
        guard renamed(from, to: to, on: replica, expected: file.stamp) else { return }
        try? Syscall.syncDirectory(AtomicFile.parent(of: target))
        archive.entries[from] = nil
        guard let stamp = try? FileStamp.of(target) else { return }
        if edited {
            // The edit followed the move; the other side still holds the old content at `to`.
            guard let bytes = try? FileReading.contents(of: target), SHA256.hash(bytes) == file.hash,
                  let otherStamp = writeReplacing(bytes, to, in: replica.other, expected: moved.stamp, executable: file.stamp.isExecutable)
            else { return }
            storeBase(bytes, at: to)
            record(to, hash: file.hash, stamp, in: replica, other: otherStamp)
        } else {
            record(to, hash: moved.hash, stamp, in: replica, other: moved.stamp)
        }
    }

    /// Whether every folder on the way to `path` in `replica` is a real folder (or not
    /// there yet): Folio never reads, writes or deletes through a symbolic link, so it
    /// never touches anything outside the two roots.
    mutating func insideRoot(_ replica: Replica, _ path: String) -> Bool {
        // The common case, a file in a folder already checked: only its name is looked at.
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), realFolders[replica == .a ? 0 : 1].contains(String(path[..<slash])) {
            let name = path[path.index(after: slash)...]
            if !name.isEmpty && name != "." && name != ".." { return true }
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            report.skipped["\(replica.rawValue):\(path)"] = "a name that would lead outside the replica"
            return false
        }
        var folder = engine.root(replica)
        var relative = ""
        for part in parts.dropLast() {
            folder += "/" + part
            relative += relative.isEmpty ? String(part) : "/" + part
            // A folder seen to be real once in this sync is not looked at again for every
            // file in it.
            if realFolders[replica == .a ? 0 : 1].contains(relative) { continue }
            guard let stamp = try? FileStamp.of(folder) else { return true }
            if !stamp.isDirectory {
                report.skipped["\(replica.rawValue):\(path)"] = stamp.isSymbolicLink
                    ? "the folder \(folder) is a symbolic link: Folio never writes through links" : "\(folder) is not a folder"
                return false
            }
            realFolders[replica == .a ? 0 : 1].insert(relative)
        }
        return true
    }

    /// The bytes of `path` in `replica`, if the file still has the stamp the scan saw
    /// (then it holds the content the scan hashed); else the path is reported as changed
    /// during the sync.
    mutating func read(_ replica: Replica, _ path: String) -> [UInt8]? {
        guard insideRoot(replica, path), let file = scanned(replica).files[path],
              let bytes = (try? Self.contents(of: full(replica, path), ifStamped: file.stamp)) ?? nil
        else {
            report.changedDuringSync.append(path)
            return nil
        }
        return bytes
    }

    /// The bytes of the file at `path` if, once read, it has the stamp `expected`; nil
    /// when it has another.
    static func contents(of path: String, ifStamped expected: FileStamp) throws(SystemError) -> [UInt8]? {
        let fd = try Syscall.openForReading(path)
        defer { Syscall.close(fd) }
        let (bytes, stamp) = try FileReading.contents(ofOpen: fd, path: path)
        return stamp == expected ? bytes : nil
    }

    /// Writes `bytes` at `path` in `replica` if the file there is still what the scan saw.
    mutating func write(_ bytes: [UInt8], _ path: String, in replica: Replica, executable: Bool, newMode: UInt32? = nil) -> FileStamp? {
        writeReplacing(bytes, path, in: replica, expected: scanned(replica).files[path]?.stamp, executable: executable, newMode: newMode)
    }

    /// Writes `bytes` at `path` in `replica` if the file there still has the stamp
    /// `expected` (nil: absent). A new file is written now (flushed later with the rest);
    /// a file that replaces another is prepared now and renamed by
    /// ``commitReplacements()`` once all of them are flushed, so that no file is ever
    /// replaced by less than it held. Returns the new stamp, or for a replacement a
    /// placeholder (size -1) that ``commitReplacements()`` corrects.
    ///
    /// A replacement keeps the permissions of the file it replaces (a 0600 file stays
    /// private), with the executable bit as `executable` says; a new file gets
    /// `newMode` (the permissions of the file it copies) narrowed by the umask, as `cp`
    /// makes one, or without it 0666 (0777 when executable) narrowed so.
    mutating func writeReplacing(
        _ bytes: [UInt8], _ path: String, in replica: Replica, expected: FileStamp?, executable: Bool, newMode: UInt32? = nil
    ) -> FileStamp? {
        guard insideRoot(replica, path) else { return nil }
        do {
            guard let expected else {
                let creating = newMode.map { $0 & 0o777 } ?? (executable ? 0o777 : 0o666)
                let written = try AtomicFile.write(bytes, to: full(replica, path), mode: nil, creating: creating, durable: false) { $0 == nil }
                guard written else {
                    report.changedDuringSync.append(path)
                    return nil
                }
                return try FileStamp.of(full(replica, path))
            }
            let mode = expected.permissions(executable: executable)
            let temporary = try AtomicFile.prepare(bytes, beside: full(replica, path), mode: mode)
            replacements.append((replica, path, temporary, expected, archive.entries[path], SHA256.hash(bytes)))
            return Self.placeholder(mode: mode)
        } catch {
            report.skipped["\(replica.rawValue):\(path)"] = Self.cannotWrite(error)
            return nil
        }
    }

    /// The stamp recorded for a replacement not yet renamed: ``commitReplacements()``
    /// puts the real one in its place.
    static func placeholder(mode: UInt32) -> FileStamp {
        FileStamp(size: -1, modified: 0, changed: 0, inode: 0, type: .regular, permissions: mode)
    }

    /// Renames every prepared replacement over its target, after one flush of them all;
    /// a target that changed meanwhile keeps its content, and its path goes back to
    /// what the archive said before (the next sync looks at it again).
    mutating func commitReplacements() {
        guard !replacements.isEmpty else { return }
        do { try AtomicFile.flushFileSystem(containing: engine.state) } catch {
            for item in replacements { try? Syscall.unlink(item.temporary) }
            for item in replacements {
                archive.entries[item.path] = item.before
                report.changedDuringSync.append(item.path)
            }
            report.skipped[SyncReport.stateKey] = "cannot flush: \(error)"
            replacements.removeAll()
            return
        }
        for item in replacements {
            let target = full(item.replica, item.path)
            // The stamp of what Folio wrote, from its own file before the rename: the one
            // taken by path after it is Folio's only if it is that very file (an edit saved
            // right after the rename must not be recorded as what Folio wrote).
            let ours = try? FileStamp.of(item.temporary)
            let renamed = (try? AtomicFile.commit(item.temporary, to: target) { $0 == item.expected }) ?? false
            guard renamed, let ours else {
                report.changedDuringSync.append(item.path)
                archive.entries[item.path] = item.before
                continue
            }
            let stamp = FileStamp.afterCommit(ours: ours, now: try? FileStamp.of(target))
            // Only onto an entry that records what was written: when the other side's
            // commit failed, the entry went back to the old version, and this stamp must
            // not vouch for it.
            if var entry = archive.entries[item.path], entry.hash == item.hash {
                if item.replica == .a { entry.stampA = stamp } else { entry.stampB = stamp }
                archive.entries[item.path] = entry
            }
        }
        replacements.removeAll()
    }

    /// Records `path` with `stamp` in `replica` and `other` in the other replica.
    mutating func record(_ path: String, hash: SHA256.Digest, _ stamp: FileStamp, in replica: Replica, other: FileStamp) {
        if replica == .a { record(path, hash: hash, stampA: stamp, stampB: other) } else { record(path, hash: hash, stampA: other, stampB: stamp) }
    }

    mutating func record(_ path: String, hash: SHA256.Digest, stampA: FileStamp, stampB: FileStamp) {
        // The id of the content recorded: whichever side holds that content now.
        let id = [scanA.files[path], scanB.files[path]].compactMap { $0 }.first { $0.hash == hash }?.id
        archive.entries[path] = SyncArchive.Entry(
            hash: hash, size: stampA.size, executable: stampA.isExecutable, stampA: stampA, stampB: stampB, id: id)
    }

    mutating func copy(_ path: String, from source: Replica) {
        report.copied.append(path)
        guard !engine.options.dryRun, let file = scanned(source).files[path], let bytes = read(source, path) else { return }
        guard let stamp = write(bytes, path, in: source.other, executable: file.stamp.isExecutable, newMode: file.stamp.permissions) else { return }
        storeBase(bytes, hash: file.hash, at: path)
        record(path, hash: file.hash, file.stamp, in: source, other: stamp)
    }

    mutating func delete(_ path: String, in replica: Replica) {
        report.deleted.append(path)
        guard !engine.options.dryRun, let expected = scanned(replica).files[path]?.stamp, insideRoot(replica, path) else { return }
        // Into the trash, never unlinked: `folio restore` brings it back.
        do {
            guard try Trash(state: engine.state).move(
                path, from: engine.root(replica), replica: replica, expected: expected, hash: scanned(replica).files[path]?.hash)
            else {
                report.changedDuringSync.append(path)
                return
            }
            archive.entries[path] = nil
        } catch {
            report.skipped["\(replica.rawValue):\(path)"] = "cannot move to the trash: \(error)"
        }
    }

    mutating func merge(_ path: String) {
        report.merged.append(path)
        guard !engine.options.dryRun, let fileA = scanA.files[path], let fileB = scanB.files[path],
              let bytesA = read(.a, path), let bytesB = read(.b, path)
        else { return }
        // The newer version is "ours": it stays in place when a conflict needs a copy.
        let ours: Replica = fileA.stamp.modified >= fileB.stamp.modified ? .a : .b
        let (oursBytes, theirsBytes) = ours == .a ? (bytesA, bytesB) : (bytesB, bytesA)
        let base = archive.entries[path].flatMap { loadBase($0.hash) } ?? (archive.entries[path] == nil ? [] : nil)
        var merged: [UInt8]
        var conflicts = 0
        var copyBytes: [UInt8]?
        if let base, Self.isText(oursBytes), Self.isText(theirsBytes), Self.isText(base) {
            let labels = MergeOptions(oursLabel: label(ours), baseLabel: "base", theirsLabel: label(ours.other))
            let result = FileMerge.merge(path: path, base: base, ours: oursBytes, theirs: theirsBytes, options: labels, policy: engine.options.conflicts)
            (merged, conflicts, copyBytes) = (result.bytes, result.conflicts, result.conflictCopy)
        } else {
            // Binary, or no base to merge against: keep both, the newer in place.
            (merged, conflicts, copyBytes) = (oursBytes, 1, theirsBytes)
        }
        let executable = (ours == .a ? fileA : fileB).stamp.isExecutable
        // The other version is saved first: were the sync killed between the writes, no
        // value would exist only in a file the merged version has already replaced.
        var copyPath: String?
        if conflicts > 0, let copyBytes {
            let name = freeName(Self.conflictCopyName(path, timestamp: Syscall.localTimestamp(), replica: label(ours.other)))
            // As private as the file it is a copy of, on each side.
            guard let copyA = write(copyBytes, name, in: .a, executable: executable, newMode: fileA.stamp.permissions(executable: executable)),
                  let copyB = write(copyBytes, name, in: .b, executable: executable, newMode: fileB.stamp.permissions(executable: executable))
            else { return }
            storeBase(copyBytes, at: name)
            record(name, hash: SHA256.hash(copyBytes), stampA: copyA, stampB: copyB)
            copyPath = name
        }
        guard let stampA = write(merged, path, in: .a, executable: executable),
              let stampB = write(merged, path, in: .b, executable: executable)
        else { return }
        storeBase(merged, at: path)
        record(path, hash: SHA256.hash(merged), stampA: stampA, stampB: stampB)
        if conflicts > 0 { report.conflicts[path] = .some(copyPath) }
    }

    /// `name`, or `name` with `-2`, `-3`… before its extension, whichever no replica
    /// holds or had when scanned (two conflicts on one file in one second).
    func freeName(_ name: String) -> String {
        Self.freeName(name, scans: [scanA, scanB], roots: Replica.allCases.map(engine.root))
    }

    /// `name`, or `name` with `-2`, `-3`… before its extension, whichever none of `scans`
    /// holds and no file under `roots` has.
    static func freeName(_ name: String, scans: [ReplicaScan], roots: [String]) -> String {
        func taken(_ candidate: String) -> Bool {
            scans.contains { $0.files[candidate] != nil } || roots.contains { (try? FileStamp.of($0 + "/" + candidate)) != nil }
        }
        guard taken(name) else { return name }
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        let dot = name[slash...].lastIndex(of: ".").flatMap { $0 == slash ? nil : $0 } ?? name.endIndex
        var counter = 2
        while taken(name[..<dot] + "-\(counter)" + name[dot...]) { counter += 1 }
        return name[..<dot] + "-\(counter)" + name[dot...]
    }

    /// A replica's name in conflict labels and copies: its folder's name.
    func label(_ replica: Replica) -> String {
        let name = engine.root(replica).split(separator: "/").last.map(String.init) ?? replica.rawValue
        let other = engine.root(replica.other).split(separator: "/").last.map(String.init)
        return name == other ? replica.rawValue : name
    }

    /// `recipes/soup.md` → `recipes/soup.sync-conflict-20261130-120000-laptop.md`, as Syncthing names them.
    static func conflictCopyName(_ path: String, timestamp: String, replica: String) -> String {
        ConflictCopies.name(for: path, timestamp: timestamp, device: replica)
    }

    /// Why a file could not be written, in words: a name the file system there cannot
    /// hold (a FAT stick and `:`) is said so, and left alone, never renamed.
    static func cannotWrite(_ error: SystemError) -> String {
        guard Syscall.unholdableName.contains(error.code) else { return "cannot write: \(error)" }
        return "the file system there cannot hold this name (\(Syscall.describe(error.code))): left alone; rename it to sync it"
    }

    /// Text as git decides it: no NUL byte in the first 8,000.
    static func isText(_ bytes: [UInt8]) -> Bool { !bytes.prefix(8000).contains(0) }

    /// Keeps a text version as a future merge base, under its hash (`hash`, when the
    /// caller knows it), and in the history as what `path` held now.
    mutating func storeBase(_ bytes: [UInt8], hash: SHA256.Digest? = nil, at path: String) {
        guard !engine.options.dryRun, Self.isText(bytes), bytes.count <= 16 << 20 else { return }
        let hash = hash ?? SHA256.hash(bytes)
        do {
            try bases.store(bytes, hash: hash)
            if bytes.count <= VersionHistory.largestVersion {
                try history?.record(bytes, hash: hash, at: path, time: engine.now)
            }
        } catch {
            // Not silent: without its base, the next merge of this file would keep a
            // conflict copy where it could have merged.
            if !report.couldNotWriteState {
                report.skipped[SyncReport.stateKey] = "cannot keep the merged version of \(path) as the base of the next merge (\(error)); "
                    + "the files are in step, but free space in the state folder, or the next merge may keep a conflict copy"
            }
        }
    }

    func loadBase(_ hash: SHA256.Digest) -> [UInt8]? { bases.load(hash) }
}
