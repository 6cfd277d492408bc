import FolioFolder
import FolioFormat
import FolioSystem

/// How ``SharedFolder`` folds.
public struct FoldOptions: Sendable {
    /// The state folder (this device's name, trash, lock); default: the folder's own under
    /// `$XDG_STATE_HOME/folio/` (else `~/.local/state/folio/`).
    public var stateDirectory: String?
    /// Say what would be done, and do nothing (no lock, nothing recorded).
    public var dryRun = false
    /// How long a file and its copy must be left alone before they are recorded or
    /// folded: the sync tool (or an editor) may still be writing them.
    public var quietPeriod: Duration = .seconds(2)
    /// How long a file must be left alone before its version is recorded (never a file
    /// still being written), at most `quietPeriod`: short, so that an edit is in the
    /// history before the sync tool can carry it away (or over it).
    public var recordQuietPeriod: Duration = .milliseconds(500)
    /// Whether git is respected and asked: nothing written while it is in the middle of
    /// an operation, its writes taken for arrivals, its merge base a base.
    public var useGit = true

    /// The defaults.
    public init() {}
}

/// What one fold pass did, copy by copy.
public struct FoldReport: Sendable, Equatable {
    /// A copy merged into its file, then moved to the trash.
    public struct Folded: Sendable, Equatable {
        /// The copy, relative to the folder.
        public var copy: String
        /// Its file.
        public var file: String
        /// Where the base came from (nil when the copy held what the file, or another
        /// copy, did).
        public var base: BaseCandidate.Source?
    }

    /// A copy left in place, and why.
    public struct Kept: Sendable, Equatable {
        /// The copy, relative to the folder.
        public var copy: String
        /// Its file.
        public var file: String
        /// Why it stays: `time (20m | 25m)`, no base, …
        public var reason: String
    }

    /// Copies folded (or, on a dry run, that would be).
    public var folded: [Folded] = []
    /// Copies kept: real conflicts, no base, not text, the file gone.
    public var kept: [Kept] = []
    /// Copies left for later: they or their files changed too recently, or the sync
    /// tool is still writing them.
    public var waiting: [String] = []
    /// Versions the graph proves the sync tool dropped (an edit held by a conflict copy
    /// that was then overwritten, from which nothing was made, held by no file or copy),
    /// written back as copies (`NAME.sync-conflict-…-FOLIOSV.EXT`) to be folded like the others.
    public var rescued: [String] = []
    /// Why nothing was done: git is in the middle of an operation in this work tree.
    public var blocked: String?
}

/// A folder shared through Syncthing, Dropbox, Nextcloud or git, as Folio follows it:
/// the versions every device saw and made, in the folder's shared history
/// (``SharedHistory``, `.folio/`), and the other tools' conflict copies folded back into
/// their files against their lowest common ancestor in that history (``VersionGraph``),
/// each fold a guarded write and each folded copy moved to the trash (`folio restore`
/// brings it back).
public final class SharedFolder {
    /// The folder (absolute, links resolved).
    public let root: String
    /// Its state folder.
    public let state: String
    /// The options.
    public let options: FoldOptions
    /// The shared history.
    package let history: SharedHistory
    /// The git work tree the folder is in, if any (and `useGit`).
    package let git: GitWorkTree?
    /// When this device's log was last compacted (`history.compacted`).
    private lazy var compacted = GrowthMarker(path: state + "/history.compacted")
    private let lock: StateLock?

    /// Opens `folder`; unless it is a dry run, takes the state folder's lock (waiting a
    /// few seconds for another Folio process).
    public init(_ folder: String, options: FoldOptions = FoldOptions()) throws(SyncError) {
        do { root = try Syscall.realPath(folder) } catch { throw SyncError(.replicaMissing, "\(folder): the folder is missing (\(error))") }
        guard (try? FileStamp.of(root))?.isDirectory == true else { throw SyncError(.replicaMissing, "\(folder) is not a folder") }
        self.options = options
        state = options.stateDirectory ?? Self.defaultState(for: root)
        if options.dryRun {
            lock = nil
        } else {
            do { lock = try StateLock.acquire(state) } catch { throw SyncError(lockFailure: error) }
        }
        do { history = try SharedHistory(root: root, state: state) } catch {
            throw SyncError(.stateIO, "cannot read this device's name in \(state): \(error)")
        }
        git = options.useGit ? GitWorkTree.containing(root) : nil
    }

    /// A file whose change time is this much (ns) past its modification time was given
    /// an older modification time by whatever wrote it: a sync tool bringing it.
    static let preservedTimeGap: Int64 = 50_000_000
    /// Syncthing sets a file's time, then renames it into place (measured here: 37–44 ms
    /// between them while it resolved a clash); an editor's save changes both at once. A
    /// gap above this beside a fresh conflict copy is the sync tool's write (ns).
    static let renameGap: Int64 = 5_000_000
    /// A conflict copy changed less than this ago (ns) marks a clash being resolved.
    static let clashWindow: Int64 = 10 * 1_000_000_000
    /// How long after a device's version was replaced by an arrival before it may be
    /// taken for dropped (ns). On the device that made it the sync tool moves it to its
    /// copy before it puts the winner in place; this is time for that copy to be seen (or
    /// seen overwritten by another loser's of the same name).
    static let dropSettled: Int64 = 1_000_000_000
    /// How long after such an arrival the file is looked at for a dropped version (ns).
    static let rescueWindow: Int64 = 600 * 1_000_000_000

    /// How long a copy whose base the shared history cannot name yet waits for other
    /// devices' logs to arrive before it is reported kept (ns).
    static let historyWait: Int64 = 60 * 1_000_000_000

    /// The default state folder of the folder `root` (absolute).
    public static func defaultState(for root: String) -> String {
        let home = Syscall.environment("HOME") ?? "/tmp"
        let base = Syscall.environment("XDG_STATE_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
        return base + "/folio/folder-" + String(SHA256.hash(Array(root.utf8)).description.prefix(16))
    }

    /// This device's name in the shared history (its log is `.folio/logs/NAME.log`).
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
        let walk = try? DirectoryWalk.files(under: root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { !FolderRules.isIgnoredFile($0) })
        return walk?.paths ?? []
    }

    /// Records in the shared history what each of `paths` (relative; all tracked files,
    /// and those this device saw that are gone, when nil) holds now: an edit made here, an
    /// arrival, git's write or a removal (see ``classify(_:at:previous:)``).
    /// Returns the paths not recorded yet because they changed too recently (an editor or
    /// the sync tool may still be writing them). Nothing is recorded while git is in the
    /// middle of an operation: all of `paths` are returned.
    @discardableResult
    public func record(_ paths: [String]? = nil) throws(SystemError) -> [String] {
        guard !options.dryRun else { return [] }
        if gitOperationInProgress() != nil { return paths ?? trackedFiles() }
        history.refresh()
        var list = paths ?? trackedFiles()
        if paths == nil {
            let here = Set(list)
            for path in history.graph.paths.sorted() where !here.contains(path) && history.graph.latest(device: history.device, path: path).map({ $0.kind != .delete }) == true {
                list.append(path)
            }
        }
        let now = Syscall.nanosecondsNow()
        var notYet: [String] = []
        for path in list where !observe(path, time: now) { notYet.append(path) }
        try history.flush()
        try compactIfGrown()
        return notYet
    }

    /// Records what `path` holds now; false when it changed too recently to be read as done.
    @discardableResult
    func observe(_ path: String, time: Int64) -> Bool {
        let previous = history.graph.latest(device: history.device, path: path)
        let read: (bytes: [UInt8], stamp: FileStamp)
        do { read = try Self.read(root + "/" + path) } catch {
            if error.code == Syscall.noSuchFile, let previous, previous.kind != .delete {
                history.log(.delete, path: path, version: nil, parents: [previous.id], time: time)
            }
            return true
        }
        guard isQuiet(path, read.stamp, for: min(options.recordQuietPeriod, options.quietPeriod)) else { return false }
        let bytes = read.bytes
        // Not records (binary, huge), or git's or a merge's conflict markers: never a version.
        guard bytes.count <= SharedHistory.largestVersion, ConflictFold.isText(bytes), !ConflictFold.hasConflictMarkers(bytes) else { return true }
        let hash = SHA256.hash(bytes)
        guard previous?.version != hash else { return true }
        do { try history.store(bytes, hash: hash) } catch { return true }
        let (kind, parents) = classify(hash, at: path, stamp: read.stamp, previous: previous)
        history.log(kind, path: path, version: hash, parents: parents, time: time)
        if kind == .arrival && ConflictCopies.original(of: path) == nil { lastArrival = time }
        return true
    }

    /// When this device last saw a file (not a copy) replaced by a version made elsewhere:
    /// a version of its own may have been lost there, which a pass a little later
    /// (``dropSettled``) can prove and write back.
    public private(set) var lastArrival: Int64?

    /// How long after an arrival a pass can tell whether it dropped a version.
    public static var dropCheckDelay: Duration { .nanoseconds(dropSettled + 100_000_000) }

    /// What a change of `path` to content `hash` was, from what this device last saw
    /// there (`previous`) and the file's stamp: a conflict copy is only ever an arrival; a
    /// version some device made that this device had not been past is an arrival (the
    /// sync tool brought it); a file that now holds what HEAD's commit holds was written
    /// by git (a checkout, a reset, a stash), or committed before it was seen; a file
    /// whose modification time was set into its past (as sync tools do) arrived; a file
    /// whose previous content a conflict copy now holds lost a clash to an arrival;
    /// anything else is an edit made here, from `previous` (a first sighting: from nothing).
    func classify(_ hash: SHA256.Digest, at path: String, stamp: FileStamp, previous: VersionEvent?) -> (VersionEvent.Kind, [VersionEvent.ID]) {
        let graph = history.graph
        if ConflictCopies.original(of: path) != nil { return (.arrival, []) }
        guard let previous, previous.kind != .delete, let before = graph.node(previous.id) else {
            return (graph.makers(of: hash).isEmpty ? .edit : .arrival, [])
        }
        let past = graph.ancestors(of: before)
        // (As the versions they are: several devices' folds of one copy are one.)
        if graph.makers(of: hash).contains(where: { !past.contains(graph.node($0) ?? $0) }) { return (.arrival, []) }
        if let git, git.matchesHead(path) { return (.gitCheckout, []) }
        // Written by a tool that kept an older modification time (Syncthing, Dropbox, rsync
        // and Unison give a file they bring the time it was saved where it was made): not
        // an edit made here. An editor's save changes both times together.
        let gap = stamp.changed - stamp.modified
        if gap > Self.preservedTimeGap { return (.arrival, []) }
        // The sync tool resolved a clash: this device's version is now its copy — or was,
        // until another loser's copy of the same name overwrote it (then only a copy made
        // just now, and a file renamed into place a little after its time was set, tell).
        let now = Syscall.nanosecondsNow()
        for copy in copies(of: path) {
            guard let copyStamp = try? FileStamp.of(root + "/" + copy) else { continue }
            if gap > Self.renameGap && now - max(copyStamp.modified, copyStamp.changed) < Self.clashWindow { return (.arrival, []) }
            if let held = previous.version, (try? FileReading.contents(of: root + "/" + copy)).map(SHA256.hash) == held { return (.arrival, []) }
        }
        return (.edit, [previous.id])
    }

    /// The conflict copies of `path` in its folder.
    func copies(of path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) + "/" } ?? ""
        return Trash.entries(root + "/" + folder).map { folder + $0 }.filter { ConflictCopies.rootOriginal(of: $0) == path }
    }

    /// Compacts the history (``SharedHistory/compact(present:)``) once this device's log
    /// has grown by half since it was last compacted.
    private func compactIfGrown() throws(SystemError) {
        guard compacted.isDue(size: history.ownLogSize) else { return }
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
        var copies = trackedFiles().compactMap { path in ConflictCopies.original(of: path).map { (copy: path, file: $0) } }
        if !options.dryRun {
            for rescued in rescueDroppedVersions(copies.map(\.copy)) {
                report.rescued.append(rescued)
                copies.append((rescued, ConflictCopies.original(of: rescued) ?? rescued))
            }
        }
        var held: [String: [SHA256.Digest: String]] = [:]
        // Deepest first: `a.sync-conflict-…-X.sync-conflict-…-Y.md` before `a.sync-conflict-…-X.md`;
        // then by name, so that of identical copies every device keeps the same one.
        for (copy, file) in copies.sorted(by: { ($0.copy.count, $1.copy) > ($1.copy.count, $0.copy) }) {
            fold(copy, into: file, held: &held[ConflictCopies.rootOriginal(of: copy) ?? file, default: [:]], report: &report)
        }
        if !options.dryRun { try? history.flush() }
        return report
    }

    private func fold(_ copy: String, into file: String, held: inout [SHA256.Digest: String], report: inout FoldReport) {
        func keep(_ reason: String) { report.kept.append(.init(copy: copy, file: file, reason: reason)) }
        guard let copyRead = try? Self.read(root + "/" + copy) else { return }
        guard let fileRead = try? Self.read(root + "/" + file) else {
            return keep("\(file) is gone; the copy holds a version of it (folio resolve --keep copy puts it back)")
        }
        guard isQuiet(copy, copyRead.stamp) && isQuiet(file, fileRead.stamp) else { return report.waiting.append(copy) }
        if ConflictFold.hasConflictMarkers(fileRead.bytes) { return keep("\(file) holds conflict markers: resolve them first") }
        if ConflictFold.hasConflictMarkers(copyRead.bytes) { return keep("the copy holds conflict markers") }
        let now = Syscall.nanosecondsNow()
        if !options.dryRun {
            observe(file, time: now)
            observe(copy, time: now)
        }
        let fileHash = SHA256.hash(fileRead.bytes), copyHash = SHA256.hash(copyRead.bytes)
        // Another copy of this file already holds these bytes: one version, kept once.
        if let twin = held[copyHash], twin != copy, fileHash != copyHash {
            return trash(copy, read: copyRead, hash: copyHash, report: &report, folded: .init(copy: copy, file: file, base: nil))
        }
        held[copyHash] = copy
        let base = fileHash == copyHash ? nil : base(for: file, file: fileRead.bytes, copy: copyRead.bytes)
        let outcome = ConflictFold.fold(path: file, base: base?.bytes, file: fileRead.bytes, copy: copyRead.bytes, exactBase: true)
        switch outcome {
        case .identical, .merged:
            if options.dryRun { return report.folded.append(.init(copy: copy, file: file, base: base?.source)) }
            if case .merged(let bytes) = outcome, bytes != fileRead.bytes {
                // The version the fold replaces goes to the trash too: every fold can be undone by hand.
                do { try Trash(state: state).keep(fileRead.bytes, as: file, replica: .a, mode: fileRead.stamp.permissions) } catch {
                    return keep("cannot keep the file's version in the trash: \(error)")
                }
                // Only over what was read, and only while the copy is as read: someone may be typing.
                guard (try? FileStamp.of(root + "/" + copy)) == copyRead.stamp,
                      (try? AtomicFile.write(bytes, to: root + "/" + file, mode: fileRead.stamp.permissions) { $0 == fileRead.stamp }) == true
                else { return report.waiting.append(copy) }
                let hash = SHA256.hash(bytes)
                try? history.store(bytes, hash: hash)
                let parents = [history.graph.latest(device: history.device, path: file)?.id, history.withGraph { $0.node(holding: copyHash) }].compactMap { $0 }
                history.log(.fold, path: file, version: hash, parents: parents, copy: copy, time: Syscall.nanosecondsNow())
                try? history.flush()
            }
            trash(copy, read: copyRead, hash: copyHash, report: &report, folded: .init(copy: copy, file: file, base: base?.source))
        case .conflict(let clash): keep(clash)
        case .noBase:
            // Other devices keep the history, and theirs may not have arrived yet: wait a while
            // (a copy and the log line naming its version travel separately) before saying so.
            let lineage = ConflictCopies.rootOriginal(of: copy) ?? file
            let age = Syscall.nanosecondsNow() - max(copyRead.stamp.modified, copyRead.stamp.changed)
            if !onlyThisDevice(at: lineage) && age < Self.historyWait { return report.waiting.append(copy) }
            keep("no common ancestor of \(file) and the copy is known")
        case .notText: keep("not a text file")
        }
    }

    /// Moves a folded (or duplicate) copy to the trash, noting its removal.
    private func trash(_ copy: String, read: (bytes: [UInt8], stamp: FileStamp), hash: SHA256.Digest, report: inout FoldReport, folded: FoldReport.Folded) {
        if options.dryRun { return report.folded.append(folded) }
        do {
            guard try Trash(state: state).move(copy, from: root, replica: .a, expected: read.stamp, hash: hash) else {
                return report.waiting.append(copy)
            }
        } catch { return report.kept.append(.init(copy: copy, file: folded.file, reason: "cannot move it to the trash: \(error)")) }
        observe(copy, time: Syscall.nanosecondsNow())
        report.folded.append(folded)
    }

    /// The base a fold of a conflict copy holding `copyBytes` into the file at `file`
    /// (relative to the folder, holding `fileBytes`) takes, as ``fold()`` finds it, with
    /// where it came from; nil when no common ancestor is known. For `folio resolve
    /// --merge`, which merges with conflict markers where ``fold()`` would keep the copy.
    /// The base is the lowest common ancestor of the file's version and the copy's in the
    /// shared history (its content from `.folio/`, else Syncthing's `.stversions`); else
    /// the merge base of the commits git holds them in; else, when no other device keeps
    /// a history, ``guessedBase(for:file:copy:)``.
    package func base(for file: String, file fileBytes: [UInt8], copy copyBytes: [UInt8]) -> (source: BaseCandidate.Source, bytes: [UInt8])? {
        history.refresh()
        let fileHash = SHA256.hash(fileBytes), copyHash = SHA256.hash(copyBytes)
        let device = history.device
        let ancestor: VersionEvent.ID? = history.withGraph { graph in
            guard let fileNode = Self.version(of: file, holding: fileHash, on: device, in: &graph),
                  let copyNode = Self.version(ofCopyHolding: copyHash, in: &graph)
            else { return nil }
            return graph.lowestCommonAncestor(fileNode, copyNode)
        }
        if let ancestor, let content = history.graph.events[ancestor]?.version {
            if let bytes = history.contents(of: content) { return (.history, bytes) }
            if let kept = ExternalBases.syncthingVersions(root: root, path: file).first(where: { $0.candidate.hash == content }) {
                return (.syncthingVersions, kept.bytes)
            }
        }
        if let git, let bytes = git.mergeBase(path: file, file: fileHash, copy: copyHash) { return (.git, bytes) }
        // A copy of a copy descends from the file both are versions of.
        let lineage = ConflictCopies.rootOriginal(of: file) ?? file
        return onlyThisDevice(at: lineage) ? guessedBase(for: lineage, file: fileBytes, copy: copyBytes) : nil
    }

    /// The version the file `file` holding `content` is, as `device` saw it arrive or made
    /// it; nil while the logs cannot say yet. A sync tool never brings back a version the
    /// device had moved past: bytes that match only such a version are a newer version
    /// with old bytes (an untick) whose log line has not arrived.
    static func version(of file: String, holding content: SHA256.Digest, on device: String, in graph: inout VersionGraph) -> VersionEvent.ID? {
        let seen = graph.events(device: device, path: file)
        guard let own = seen.last, own.version == content, let node = graph.node(own.id) else { return graph.node(holding: content) }
        if own.kind == .arrival, seen.count > 1, let before = graph.node(seen[seen.count - 2].id), before != node, graph.descends(before, from: node) {
            return nil
        }
        return node
    }

    /// The version a conflict copy holding `content` is; nil while the logs cannot say
    /// yet. A copy holds a version that lost a clash: one nothing was made from but a fold
    /// of it. Bytes that match only a version others were edited from are a newer version
    /// with old bytes whose log line has not arrived.
    static func version(ofCopyHolding content: SHA256.Digest, in graph: inout VersionGraph) -> VersionEvent.ID? {
        guard let node = graph.node(holding: content) else { return nil }
        guard graph.hasChildren(node) else { return node }
        let folded = graph.events.values.contains { $0.kind == .fold && $0.parents.contains { graph.node($0) == node } }
        return folded ? node : nil
    }

    /// Whether no other device's Folio ever logged `file`: the folder's other devices
    /// run no Folio (or none has yet), so no log can name the other side's past.
    func onlyThisDevice(at file: String) -> Bool {
        history.graph.devices.allSatisfy { $0 == history.device || history.graph.events(device: $0, path: file).isEmpty }
    }

    /// Where no other device keeps a history, the only past there is is this device's:
    /// the newest version it saw at `file` before either side first appeared, passing
    /// over one a side shows no sign of having had (``BaseChoice``). With other devices
    /// running Folio this is never used: their logs are the truth, and are waited for.
    func guessedBase(for file: String, file fileBytes: [UInt8], copy copyBytes: [UInt8]) -> (source: BaseCandidate.Source, bytes: [UInt8])? {
        var firstSeen: [SHA256.Digest: Int64] = [:]
        var candidates: [BaseCandidate] = []
        for path in history.graph.paths where path == file || ConflictCopies.rootOriginal(of: path) == file {
            for event in history.graph.events(device: history.device, path: path) {
                guard let version = event.version else { continue }
                firstSeen[version] = min(firstSeen[version] ?? .max, event.time)
                if path == file { candidates.append(BaseCandidate(hash: version, time: event.time, source: .history)) }
            }
        }
        // What git switched in began another line: nothing before it is this one's past.
        if let switched = history.graph.events(device: history.device, path: file).last(where: { $0.kind == .gitCheckout }) {
            candidates.removeAll { $0.time < switched.time }
        }
        return BaseChoice.base(
            among: candidates, firstSeen: { firstSeen[$0] }, contents: { self.history.contents(of: $0.hash) },
            path: file, file: fileBytes, copy: copyBytes
        ).map { (.history, $0.bytes) }
    }

    /// Writes back, as conflict copies, the versions of files with copies that the shared
    /// history proves the sync tool dropped (``VersionGraph/droppedVersions(of:present:)``).
    /// Syncthing can drop such a version: when several devices clash in one second, two
    /// losing versions get the same copy name and one overwrites the other.
    /// Returns the copies written.
    func rescueDroppedVersions(_ copies: [String]) -> [String] {
        var byRoot: [String: [String]] = [:]
        for copy in copies { byRoot[ConflictCopies.rootOriginal(of: copy) ?? copy, default: []].append(copy) }
        // And the files where this device lately saw a version of its own replaced by an
        // arrival: its copy may have been folded already, or never have been made.
        // (One pass over the paths the logs name: the copies each file had, and the files.)
        let now = Syscall.nanosecondsNow()
        var loggedCopies: [String: [String]] = [:]
        for path in history.graph.paths {
            if let file = ConflictCopies.rootOriginal(of: path) {
                loggedCopies[file, default: []].append(path)
            } else if byRoot[path] == nil,
                      history.graph.events(device: history.device, path: path).contains(where: { $0.kind == .arrival && now - $0.time < Self.rescueWindow }) {
                byRoot[path] = []
            }
        }
        var written: [String] = []
        for (file, group) in byRoot.sorted(by: { $0.key < $1.key }) {
            // What this device last saw of the file's copies is brought up to date first: a
            // copy someone removed is a removal, never a version to write back.
            for path in loggedCopies[file] ?? [] where !group.contains(path) {
                if let last = history.graph.latest(device: history.device, path: path), last.kind != .delete { observe(path, time: now) }
            }
            let present = Set(([file] + group).compactMap { (try? FileReading.contents(of: root + "/" + $0)).map(SHA256.hash) })
            let device = history.device
            for dropped in history.withGraph({ $0.droppedVersions(of: file, madeBy: device, present: present, now: now, settled: Self.dropSettled) }) {
                guard let content = history.graph.events[dropped]?.version, let bytes = history.contents(of: content) else { continue }
                let name = Self.rescueName(for: file, taken: { (try? FileStamp.of(self.root + "/" + $0)) != nil })
                // As private as the file it is a version of.
                let mode = (try? FileStamp.of(root + "/" + file))?.permissions ?? 0o666
                guard (try? AtomicFile.write(bytes, to: root + "/" + name, mode: nil, creating: mode & 0o777) { $0 == nil }) == true else { continue }
                history.log(.restore, path: name, version: content, parents: [dropped], time: Syscall.nanosecondsNow())
                written.append(name)
            }
        }
        try? history.flush()
        return written
    }

    /// `soup.md` → `soup.sync-conflict-YYYYMMDD-HHMMSS-FOLIOSV.md`, the first such name
    /// not `taken` (then `FOLIO02`, `FOLIO03`…: a device part of seven capitals or digits,
    /// so that the name stays one every tool takes for a conflict copy).
    static func rescueName(for file: String, taken: (String) -> Bool) -> String {
        let time = Syscall.localTimestamp()
        var attempt = 1
        while true {
            let device = attempt == 1 ? "FOLIOSV" : "FOLIO" + (attempt < 10 ? "0" : "") + String(attempt % 100)
            let name = ConflictCopies.name(for: file, timestamp: time, device: device)
            if !taken(name) || attempt >= 99 { return name }
            attempt += 1
        }
    }

    /// Whether `path` (with stamp `stamp`) has been left alone for `duration` (the quiet period), and
    /// no sync tool's temporary file for it is in its folder.
    func isQuiet(_ path: String, _ stamp: FileStamp, for duration: Duration? = nil) -> Bool {
        let period = (duration ?? options.quietPeriod).nanoseconds
        let now = Syscall.nanosecondsNow()
        func leftAlone(_ stamp: FileStamp) -> Bool { now - max(stamp.modified, stamp.changed) >= period }
        guard leftAlone(stamp) else { return false }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { root + "/" + path[..<$0] } ?? root
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // A sync tool's temporary file for it counts while the tool writes to it: one left
        // alone for the quiet period too is an abandoned transfer (Syncthing keeps those
        // for a day), and would otherwise hold the copy back for as long.
        for temporary in [".syncthing." + name + ".tmp", "~syncthing~" + name + ".tmp"] {
            if let tempStamp = try? FileStamp.of(folder + "/" + temporary), !leftAlone(tempStamp) { return false }
        }
        return true
    }

    /// The bytes of `path` and its stamp once read.
    static func read(_ path: String) throws(SystemError) -> (bytes: [UInt8], stamp: FileStamp) {
        let fd = try Syscall.openForReading(path)
        defer { Syscall.close(fd) }
        return try FileReading.contents(ofOpen: fd, path: path)
    }
}

extension SyncError {
    /// The error for a state folder whose lock could not be had.
    init(lockFailure: StateLock.Failure) {
        if case .system = lockFailure { self.init(.stateIO, lockFailure.description) } else { self.init(.stateInUse, lockFailure.description) }
    }
}
