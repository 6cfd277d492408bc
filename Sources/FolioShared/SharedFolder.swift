import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions

/// A folder shared through Syncthing, Dropbox, Nextcloud or git, as Folio follows it:
/// the versions every device saw and made, in the folder's shared history
/// (``SharedHistory``, `.folio/`), and the other tools' conflict copies folded back into
/// their files against their lowest common ancestor in that history (``VersionGraph``),
/// each fold a guarded write and each folded copy moved to the trash (`folio restore`
/// brings it back).
public final class SharedFolder {
    /// The folder (absolute, links resolved).
    public let root: String
    /// The folder, pinned when opened: every read and write below it goes through it.
    /// Pinned again by ``followThePath()`` when another folder is made at the path.
    public private(set) var rootFolder: RootedFolder
    /// Its state folder.
    public let state: String
    /// The state folder, opened (made when missing; a dry run without one works on an
    /// empty stand-in in the temporary folder, removed with this).
    public let stateFolder: RootedFolder
    /// The options.
    public let options: FoldOptions
    /// The shared history.
    package private(set) var history: SharedHistory
    /// How the folder names conflict copies (its `folio.yaml`'s patterns included), as its
    /// history's graph was made with them.
    package var copyNames: ConflictCopyNames { history.graph.copyNames }
    /// The git work tree the folder is in, if any (and `useGit`).
    package private(set) var git: GitWorkTree?
    /// When this device's log was last compacted (`history.compacted`).
    private lazy var compacted = GrowthMarker(path: stateFolder["history.compacted"])
    private let lock: StateLock?
    /// A dry run's stand-in for a state folder not made yet (the folder it is in, and its
    /// name there), removed with this: a dry run makes nothing where Folio keeps state.
    private var scratchState: (parent: RootedFolder, name: String)?

    /// Opens `folder`; unless it is a dry run, takes the state folder's lock (waiting a
    /// few seconds for another Folio process).
    public init(_ folder: String, options: FoldOptions = FoldOptions()) throws(SyncError) {
        do { root = try Syscall.realPath(folder) } catch { throw SyncError(.replicaMissing, "\(folder): the folder is missing (\(error))") }
        do { rootFolder = try RootedFolder(root) } catch { throw SyncError(.replicaMissing, "\(folder): cannot open the folder (\(error))") }
        self.options = options
        state = options.stateDirectory ?? Self.defaultState(for: root)
        if options.dryRun {
            lock = nil
        } else {
            do { lock = try StateLock.acquire(state) } catch { throw SyncError(lockFailure: error) }
        }
        do {
            // A probe: a state folder that cannot be opened is made (or its error reported) below, as for any run.
            if options.dryRun, (try? RootedFolder(state)) == nil {
                // No state yet: the dry run reads what a first real run would, an empty one.
                let parent = try RootedFolder(Syscall.environment(nonEmpty: "TMPDIR") ?? "/tmp")
                let name = "folio-dry-run-\(UInt64.random(in: 0...UInt64.max))"
                stateFolder = try RootedFolder.creating(parent.path + "/" + name, mode: 0o700)
                scratchState = (parent, name)
            } else {
                stateFolder = try RootedFolder.creating(state, mode: 0o700)
            }
        } catch {
            throw SyncError(.stateIO, "cannot open the state folder \(state): " + FileProblem.advice(any: error, writing: true, then: "try again"))
        }
        do { history = try SharedHistory(root: rootFolder, state: stateFolder, readOnly: options.dryRun) } catch {
            throw SyncError(.stateIO, "cannot save this device's name in \(state): " + FileProblem.advice(any: error, writing: true, then: "try again"))
        }
        git = options.useGit ? GitWorkTree.containing(root) : nil
    }

    deinit {
        // Best effort: what is left of a dry run's stand-in is an empty folder in the temporary folder.
        if let (parent, name) = scratchState {
            try? parent[name + "/device"].unlink()
            try? parent[name + "/" + SharedHistory.localFolderName].removeDirectory()
            try? parent[name].removeDirectory()
        }
    }

    /// Follows the path: when the folder there now is another one (the folder removed and
    /// made again: `rm -rf` and `git clone`, a sync tool making it anew), it is pinned
    /// instead and its own shared history read. Returns whether it was; while nothing is
    /// at the path the pin stays (the removed folder reads as empty, as it is).
    package func followThePath() throws(SyncError) -> Bool {
        // A probe: no folder at the path now keeps the pin (the removed folder reads as empty, as it is).
        guard let now = try? RootedFolder(root), !now.isSameFolder(as: rootFolder) else { return false }
        do { history = try SharedHistory(root: now, state: stateFolder, readOnly: options.dryRun) } catch {
            throw SyncError(.stateIO, "cannot save this device's name in \(state): " + FileProblem.advice(any: error, writing: true, then: "try again"))
        }
        rootFolder = now
        git = options.useGit ? GitWorkTree.containing(root) : nil
        return true
    }

    /// A file whose change time is this much (ns) past its modification time was given
    /// an older modification time by whatever wrote it: a sync tool bringing it.
    package static let preservedTimeGap: Int64 = 50_000_000
    /// Syncthing sets a file's time, then renames it into place (measured here: 37–44 ms
    /// between them while it resolved a clash); an editor's save changes both at once. A
    /// gap above this beside a fresh conflict copy is the sync tool's write (ns).
    package static let renameGap: Int64 = 5_000_000
    /// A conflict copy changed less than this ago (ns) marks a clash being resolved.
    package static let clashWindow: Int64 = 10 * 1_000_000_000
    /// How long after a device's version was replaced by an arrival before it may be
    /// taken for dropped (ns): time for its copy to arrive, or for another device's log to
    /// name it. When the clash was settled on this device, the sync tool moved the version
    /// to its copy before it put the winner in place; when it was settled on another
    /// device, the copy was made there and comes seconds after the winner — after that
    /// device's sync tool noticed it (Syncthing looks 10 s after a change by default) —
    /// and a restore made before would be a needless twin of it.
    package static let dropSettled: Int64 = 20 * 1_000_000_000
    /// The same where no other device keeps a history (no log could name a copy on its
    /// way): time for the copy this device's own sync tool made to be seen (ns).
    package static let dropSettledAlone: Int64 = 1_000_000_000
    /// How long after such an arrival the file is looked at for a dropped version (ns).
    package static let rescueWindow: Int64 = 600 * 1_000_000_000

    /// How many versions published in `.folio/` since the last compaction make the next record compact.
    package static let publishedBeforeCompaction = 32

    /// The default state folder of the folder `root` (absolute).
    public static func defaultState(for root: String) -> String {
        StateFolder.home + "/folder-" + String(SHA256.hash(Array(root.utf8)).description.prefix(16))
    }

    /// This device's name in the history (its log, published in a shared folder, is `.folio/logs/NAME.log`).
    public var deviceName: String { history.device }

    /// What every device's log says happened at `path` (relative), as read now: each
    /// device's events in its log's order, devices by name.
    public func historyEvents(at path: String) -> [VersionEvent] {
        history.refresh()
        return history.graph.devices.flatMap { history.graph.events(device: $0, path: path) }
    }

    /// What git is in the middle of in this work tree (`a merge (MERGE_HEAD)`), or nil.
    public func gitOperationInProgress() -> String? { git?.operationInProgress() }

    /// The text files of the folder that Folio keeps versions of: everything but what
    /// is never synced (sync tools' and editors' own files, `.git`, `.stversions`, `.folio`).
    public func trackedFiles() -> [String] {
        // Known gap: a folder (or subfolder) that cannot be listed holds no copy to fold or file to record, unsaid; FoldReport has no place for it (a field the CLI would print, in Sources/folio).
        let walk = try? DirectoryWalk.files(under: rootFolder.root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { !FolderRules.isIgnoredFile($0) })
        return walk?.paths ?? []
    }

    /// Records in the shared history what each of `paths` (relative; all tracked files,
    /// and those this device saw that are gone, when nil) holds now: an edit made here, an
    /// arrival, git's write or a removal (see ``classify(_:at:previous:)``).
    /// Returns the paths that changed too recently to be read as done (an editor or the
    /// sync tool may still be writing them): not recorded yet when `waitingForQuiet`,
    /// else recorded as they are (what is on disk when a follower starts is a version)
    /// and worth reading again once left alone. Nothing is recorded while git is in the
    /// middle of an operation: all of `paths` are returned.
    @discardableResult
    public func record(_ paths: [String]? = nil, waitingForQuiet: Bool = true) throws(SystemError) -> [String] {
        try record(paths, waitingForQuiet: waitingForQuiet, alreadyRead: [])
    }

    /// ``record(_:waitingForQuiet:)``, taking what `alreadyRead` holds as read now (a
    /// store's load of the same folder a moment ago): those files are not read again.
    package func record(_ paths: [String]?, waitingForQuiet: Bool, alreadyRead: [FileRead]) throws(SystemError) -> [String] {
        try record(take(paths, alreadyRead: alreadyRead), waitingForQuiet: waitingForQuiet)
    }

    /// The first half of a record: what `paths` (all tracked files, and those this device
    /// saw that are gone, when nil) hold now, read from disk (on every core for many; what
    /// `alreadyRead` holds is not read again). Once taken, the record has all it needs
    /// from the folder: an edit made after this is recorded after it, from it.
    package func take(_ paths: [String]?, alreadyRead: [FileRead] = []) -> RecordTake {
        guard !options.dryRun else { return RecordTake(paths: [], reads: [], time: 0, blocked: false) }
        if gitOperationInProgress() != nil { return RecordTake(paths: paths ?? trackedFiles(), reads: [], time: 0, blocked: true) }
        history.refresh()
        var list = paths ?? trackedFiles()
        if paths == nil {
            let here = Set(list)
            for path in history.graph.paths.sorted() where !here.contains(path) && history.graph.latest(device: history.device, path: path).map({ $0.kind != .delete }) == true {
                list.append(path)
            }
        }
        let now = options.clock.wallNanoseconds
        // Many files (the whole folder): read side by side (what was not read already).
        let reads = list.count > 64 || !alreadyRead.isEmpty ? readAll(list, alreadyRead: alreadyRead) : []
        return RecordTake(paths: list, reads: reads, time: now, blocked: false)
    }

    /// The second half of a record: logs what `take` found (see ``record(_:waitingForQuiet:)``).
    package func record(_ take: RecordTake, waitingForQuiet: Bool) throws(SystemError) -> [String] {
        guard !options.dryRun else { return [] }
        if take.blocked { return take.paths }
        // Hashed side by side first.
        let reads = take.reads.isEmpty ? Array(repeating: nil, count: take.paths.count) : take.reads.mapOnEveryCore { run in run.map { $0.map(VersionRead.init) } }
        var notYet: [String] = []
        for (path, read) in zip(take.paths, reads) where !observe(path, time: take.time, waitingForQuiet: waitingForQuiet, read: read) { notYet.append(path) }
        try history.flush()
        try compactIfGrown()
        return notYet
    }

    /// When this device last saw a file (not a copy) replaced by a version made elsewhere:
    /// a version of its own may have been lost there, which a pass a little later
    /// (``dropSettled``) can prove and write back.
    public internal(set) var lastArrival: Int64?

    /// How long after an arrival a pass can tell whether it dropped a version.
    public static var dropCheckDelay: Duration { .nanoseconds(dropSettled + 100_000_000) }
    /// The same where no other device keeps a history.
    package static var dropCheckDelayAlone: Duration { .nanoseconds(dropSettledAlone + 100_000_000) }

    /// Compacts the history (``SharedHistory/compact(present:)``) once this device's log
    /// has grown by half since it was last compacted, after every few versions it
    /// published, when another device's log gained lines while versions this device
    /// published wait in `.folio/` (that device may have moved past them), and when
    /// another device compacted its log while this one publishes lines (they may have
    /// settled, see ``SharedHistory/leavingOutSettled(_:)``).
    private func compactIfGrown() throws(SystemError) {
        // Published versions go as soon as other devices are past them: compacting after
        // every few keeps `.folio/` small for the sync tool to carry.
        // A history's first record supersedes nothing: its size is where growth is counted from.
        guard compacted.exists else { return try compacted.compacted(to: history.ownLogSize) }
        let othersMovedOn = history.othersLoggedSinceCompaction && (history.publishedLeft ?? 1) > 0
            || history.othersCompactedSinceCompaction && history.publishedLogSize > 0
        guard compacted.isDue(size: history.ownLogSize) || history.publishedSinceCompaction >= Self.publishedBeforeCompaction || othersMovedOn else { return }
        try history.compact(present: [:])
        try compacted.compacted(to: history.ownLogSize)
    }

    /// Drops what no fold can need any more from the history (``SharedHistory/compact(present:)``).
    public func pruneHistory() throws(SystemError) {
        guard !options.dryRun, gitOperationInProgress() == nil else { return }
        history.refresh()
        try history.compact(present: [:])
        try compacted.compacted(to: history.ownLogSize)
    }

    /// Folds every conflict copy in the folder that can be folded; see ``FoldReport``.
    /// A copy of a copy is folded into that copy first. Copies holding the same bytes
    /// are one version: all but one go to the trash. While git is in the middle of an
    /// operation nothing is done (``FoldReport/blocked``).
    public func fold() -> FoldReport {
        var report = FoldReport()
        if let operation = gitOperationInProgress() {
            report.blocked = "git is in the middle of \(operation) in \(root): nothing is written until it is finished"
            return report
        }
        history.refresh()
        var copies = trackedFiles().compactMap { path in copyNames.original(of: path).map { (copy: path, file: $0) } }
        if !options.dryRun {
            for rescued in rescueDroppedVersions(copies.map(\.copy)) {
                report.rescued.append(rescued)
                copies.append((rescued, copyNames.original(of: rescued) ?? rescued))
            }
        }
        var held: [String: [SHA256.Digest: String]] = [:]
        // Deepest first: `a.sync-conflict-…-X.sync-conflict-…-Y.md` before `a.sync-conflict-…-X.md`;
        // then by name, so that of identical copies every device keeps the same one.
        for (copy, file) in copies.sorted(by: { ($0.copy.count, $1.copy) > ($1.copy.count, $0.copy) }) {
            fold(copy, into: file, held: &held[copyNames.rootOriginal(of: copy) ?? file, default: [:]], report: &report)
        }
        // The events stay pending and are written by the next flush of this folder; Known gap: FoldReport has no place to say the shared history could not be written (a field the CLI would print, in Sources/folio).
        if !options.dryRun { try? history.flush() }
        return report
    }

    private func fold(_ copy: String, into file: String, held: inout [SHA256.Digest: String], report: inout FoldReport) {
        func keep(_ reason: String, writeFailed: Bool = false) { report.kept.append(.init(copy: copy, file: file, reason: reason, writeFailed: writeFailed)) }
        let copyRead: (bytes: [UInt8], stamp: FileStamp), fileRead: (bytes: [UInt8], stamp: FileStamp)
        do { copyRead = try Self.read(rootFolder[copy]) } catch {
            // Gone meanwhile: nothing to fold. Unreadable: said, with the fix.
            if error.code != Syscall.noSuchFile {
                keep("cannot read the copy: " + FileProblem.advice(error, writing: false, then: "fold again"))
            }
            return
        }
        do { fileRead = try Self.read(rootFolder[file]) } catch {
            guard error.code == Syscall.noSuchFile else {
                return keep("cannot read \(file): " + FileProblem.advice(error, writing: false, then: "fold again"))
            }
            return keep("\(file) is gone; the copy holds a version of it (folio resolve --keep copy puts it back)")
        }
        guard isQuiet(copy, copyRead.stamp) && isQuiet(file, fileRead.stamp) else { return report.waiting.append(copy) }
        if ConflictFold.hasConflictMarkers(fileRead.bytes) { return keep("\(file) holds conflict markers: resolve them first") }
        if ConflictFold.hasConflictMarkers(copyRead.bytes) { return keep("the copy holds conflict markers") }
        let now = options.clock.wallNanoseconds
        if !options.dryRun {
            observe(file, time: now)
            observe(copy, time: now)
        }
        let fileHash = SHA256.hash(fileRead.bytes), copyHash = SHA256.hash(copyRead.bytes)
        // Another copy of this file already holds these bytes: one version, kept once. Said
        // of that copy even when the file holds them too now: it does because that copy was folded.
        if let twin = held[copyHash], twin != copy {
            return trash(copy, read: copyRead, hash: copyHash, report: &report, folded: .init(copy: copy, file: file, base: nil, sameAs: twin))
        }
        held[copyHash] = copy
        // Other devices' logs may name the copy's version once they arrive: their history is
        // waited for (``FoldOptions/historyWait``) before this device's own past serves as the base.
        let lineage = copyNames.rootOriginal(of: copy) ?? file
        let age = now - max(copyRead.stamp.modified, copyRead.stamp.changed)
        let waitForOthers = othersKeepHistory(at: lineage) && age < options.historyWait.nanoseconds
        let base = fileHash == copyHash ? nil : base(for: file, file: fileRead.bytes, copy: copyRead.bytes, guessing: !waitForOthers)
        let outcome = ConflictFold.fold(path: file, base: base?.bytes, file: fileRead.bytes, copy: copyRead.bytes, exactBase: true)
        switch outcome {
        case .identical, .merged:
            if options.dryRun { return report.folded.append(.init(copy: copy, file: file, base: base?.source)) }
            if case .merged(let bytes) = outcome, bytes != fileRead.bytes {
                // The version the fold replaces goes to the trash too: every fold can be undone by hand.
                let trash = Trash(state: stateFolder), kept: RootedPath
                do { kept = try trash.keep(fileRead.bytes, asFolderFile: file, mode: fileRead.stamp.permissions) } catch {
                    return keep("cannot keep the file's version in the trash in \(state): " + FileProblem.advice(error, writing: true, then: "fold again"), writeFailed: true)
                }
                // Only over what was read, and only while the copy is as read: someone may be typing.
                var written = false
                do throws(SystemError) {
                    if try FileStamp.of(rootFolder[copy]) == copyRead.stamp {
                        written = try AtomicFile.write(bytes, to: rootFolder[file], mode: fileRead.stamp.permissions) { $0 == fileRead.stamp }
                    }
                } catch where error.code == Syscall.noSuchFile {
                    // The copy went meanwhile: looked at again next pass.
                } catch {
                    // Tried again by a later pass (FoldingFollower's, soon): the version is taken back out, so no try leaves a trash copy.
                    trash.discard(kept)
                    return keep("cannot write \(file): " + FileProblem.advice(error, writing: true, then: "fold again"), writeFailed: true)
                }
                guard written else {
                    trash.discard(kept)
                    return report.waiting.append(copy)
                }
                let hash = SHA256.hash(bytes)
                // The merged version is in the file and the replaced one in the trash: the history's copy only serves a later rescue, and its events are flushed below.
                try? history.store(bytes, hash: hash)
                let parents = [history.graph.latest(device: history.device, path: file)?.id, history.withGraph { $0.node(holding: copyHash) }].compactMap { $0 }
                history.log(.fold, path: file, version: hash, parents: parents, copy: copy, time: options.clock.wallNanoseconds)
                // The events stay pending and are written by the flush at the end of the pass (see fold()).
                try? history.flush()
            }
            trash(copy, read: copyRead, hash: copyHash, report: &report, folded: .init(copy: copy, file: file, base: base?.source))
        case .conflict(let clash): keep(clash)
        case .noBase:
            // Other devices keep the history, and theirs may not have arrived yet: wait a while
            // (a copy and the log line naming its version travel separately) before saying so.
            if waitForOthers { return report.waiting.append(copy) }
            keep("no common ancestor of \(file) and the copy is known")
        case .notText: keep("not a text file")
        }
    }

    /// Moves a folded (or duplicate) copy to the trash, noting its removal.
    private func trash(_ copy: String, read: (bytes: [UInt8], stamp: FileStamp), hash: SHA256.Digest, report: inout FoldReport, folded: FoldReport.Folded) {
        if options.dryRun { return report.folded.append(folded) }
        do {
            guard try Trash(state: stateFolder).move(copy, fromFolder: rootFolder, expected: read.stamp, hash: hash) else {
                return report.waiting.append(copy)
            }
        } catch {
            let reason = "cannot move it to the trash in \(state): " + FileProblem.advice(any: error, writing: true, then: "fold again") + "; it stays in place"
            return report.kept.append(.init(copy: copy, file: folded.file, reason: reason, writeFailed: true))
        }
        observe(copy, time: options.clock.wallNanoseconds)
        report.folded.append(folded)
    }

    /// Whether `path` (with stamp `stamp`) has been left alone for `duration` (the quiet
    /// period) and, `consideringTransfers`, no sync tool's temporary file for it is in its folder.
    package func isQuiet(_ path: String, _ stamp: FileStamp, for duration: Duration? = nil, consideringTransfers: Bool = true) -> Bool {
        let period = (duration ?? options.quietPeriod).nanoseconds
        let now = options.clock.wallNanoseconds
        func leftAlone(_ stamp: FileStamp) -> Bool { now - max(stamp.modified, stamp.changed) >= period }
        guard leftAlone(stamp) else { return false }
        guard consideringTransfers else { return true }
        let file = rootFolder[path]
        let name = file.name
        // A sync tool's temporary file for it counts while the tool writes to it: one left
        // alone for the quiet period too is an abandoned transfer (Syncthing keeps those
        // for a day), and would otherwise hold the copy back for as long.
        for temporary in [".syncthing." + name + ".tmp", "~syncthing~" + name + ".tmp"] {
            // A probe: no temporary (or none to be looked at) holds the copy back.
            if let tempStamp = try? FileStamp.of(file.sibling(temporary)), !leftAlone(tempStamp) { return false }
        }
        return true
    }

    /// The bytes of `path` and its stamp once read.
    package static func read(_ path: RootedPath) throws(SystemError) -> (bytes: [UInt8], stamp: FileStamp) {
        try FileReading.contentsAndStamp(of: path)
    }
}
