import FolioFolder
import FolioFormat
import FolioSystem

/// How ``SharedFolder`` folds.
public struct FoldOptions: Sendable {
    /// The state folder (history, trash, lock); default: the folder's own under
    /// `$XDG_STATE_HOME/folio/` (else `~/.local/state/folio/`).
    public var stateDirectory: String?
    /// Say what would be done, and do nothing (no lock, nothing recorded).
    public var dryRun = false
    /// How long a file and its copy must be left alone before they are folded: the sync
    /// tool may still be writing them.
    public var quietPeriod: Duration = .seconds(2)
    /// Whether git's last commit of a path may serve as a base.
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
        /// Where the base came from (nil when the copy held what the file did).
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
    /// Versions this device held that the sync tool dropped while it made its copies (two
    /// losing versions given one copy name, one overwriting the other), written back as
    /// copies (`NAME.sync-conflict-…-FOLIOSV.EXT`) to be folded like the others.
    public var rescued: [String] = []
}

/// A folder shared through Syncthing, Dropbox, Nextcloud or git, as Folio follows it:
/// the history of versions it has seen (``VersionHistory``), and the other tools'
/// conflict copies folded back into their files against the right base
/// (``BaseChoice``, ``ConflictFold``), each fold a guarded write and each folded copy
/// moved to the trash (`folio restore` brings it back).
public final class SharedFolder {
    /// The folder (absolute, links resolved).
    public let root: String
    /// Its state folder.
    public let state: String
    /// The options.
    public let options: FoldOptions
    /// The versions seen.
    package let history: VersionHistory
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
        history = VersionHistory(state: state)
    }

    /// The default state folder of the folder `root` (absolute).
    public static func defaultState(for root: String) -> String {
        let home = Syscall.environment("HOME") ?? "/tmp"
        let base = Syscall.environment("XDG_STATE_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
        return base + "/folio/folder-" + String(SHA256.hash(Array(root.utf8)).description.prefix(16))
    }

    /// The text files of the folder that Folio keeps versions of: everything but what
    /// is never synced (sync tools' and editors' own files, `.git`, `.stversions`).
    public func trackedFiles() -> [String] {
        let walk = try? DirectoryWalk.files(under: root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { !FolderRules.isIgnoredFile($0) })
        return walk?.paths ?? []
    }

    /// Records the current version of each of `paths` (relative; all tracked files when
    /// nil) in the history. Missing or unreadable files are skipped.
    public func record(_ paths: [String]? = nil) throws(SystemError) {
        guard !options.dryRun else { return }
        let now = Syscall.nanosecondsNow()
        for path in paths ?? trackedFiles() {
            guard let bytes = try? FileReading.contents(of: root + "/" + path) else { continue }
            try history.record(bytes, at: path, time: now)
        }
        // A watcher records for weeks: the history is held to its limits as it grows,
        // not only when a process starts.
        try history.pruneIfGrown(now: now)
    }

    /// Drops history past its limits (``VersionHistory/Limits``).
    public func pruneHistory() throws(SystemError) {
        guard !options.dryRun else { return }
        try history.prune(now: Syscall.nanosecondsNow())
    }

    /// Folds every conflict copy in the folder that can be folded; see ``FoldReport``.
    /// A copy of a copy is folded into that copy first.
    public func fold() -> FoldReport {
        var report = FoldReport()
        var copies = trackedFiles().compactMap { path in ConflictCopies.original(of: path).map { (copy: path, file: $0) } }
        if !options.dryRun {
            for rescued in rescueDroppedVersions(copies.map(\.copy)) {
                report.rescued.append(rescued)
                copies.append((rescued, ConflictCopies.original(of: rescued) ?? rescued))
            }
        }
        // Deepest first: `a.sync-conflict-…-X.sync-conflict-…-Y.md` before `a.sync-conflict-…-X.md`.
        for (copy, file) in copies.sorted(by: { ($0.copy.count, $0.copy) > ($1.copy.count, $1.copy) }) {
            fold(copy, into: file, report: &report)
        }
        if !options.dryRun { try? history.flush() }
        return report
    }

    private func fold(_ copy: String, into file: String, report: inout FoldReport) {
        func keep(_ reason: String) { report.kept.append(.init(copy: copy, file: file, reason: reason)) }
        guard let copyRead = try? Self.read(root + "/" + copy) else { return }
        guard let fileRead = try? Self.read(root + "/" + file) else {
            return keep("\(file) is gone; the copy holds a version of it (folio resolve --keep copy puts it back)")
        }
        guard isQuiet(copy, copyRead.stamp) && isQuiet(file, fileRead.stamp) else { return report.waiting.append(copy) }
        let now = Syscall.nanosecondsNow()
        if !options.dryRun {
            try? history.record(fileRead.bytes, at: file, time: now)
            try? history.record(copyRead.bytes, at: copy, time: now)
        }
        let copyHash = SHA256.hash(copyRead.bytes)
        let base = Self.chooseBase(
            for: ConflictCopies.rootOriginal(of: copy) ?? file, file: fileRead.bytes, copy: copyRead.bytes, history: history, root: root, useGit: options.useGit)
        let outcome = ConflictFold.fold(path: file, base: base?.bytes, file: fileRead.bytes, copy: copyRead.bytes)
        switch outcome {
        case .identical, .merged:
            if options.dryRun { return report.folded.append(.init(copy: copy, file: file, base: base?.candidate.source)) }
            if case .merged(let bytes) = outcome {
                // The version the fold replaces goes to the trash too: every fold can be undone
                // by hand, whatever base it took.
                do { try Trash(state: state).keep(fileRead.bytes, as: file, replica: .a, mode: fileRead.stamp.permissions) } catch {
                    return keep("cannot keep the file's version in the trash: \(error)")
                }
                // Only over what was read, and only while the copy is as read: someone may be typing.
                guard (try? FileStamp.of(root + "/" + copy)) == copyRead.stamp,
                      (try? AtomicFile.write(bytes, to: root + "/" + file, mode: fileRead.stamp.permissions) { $0 == fileRead.stamp }) == true
                else { return report.waiting.append(copy) }
                try? history.record(bytes, at: file, time: Syscall.nanosecondsNow())
                try? history.flush()
            }
            do {
                guard try Trash(state: state).move(copy, from: root, replica: .a, expected: copyRead.stamp, hash: copyHash) else {
                    return report.waiting.append(copy)
                }
            } catch { return keep("cannot move it to the trash: \(error)") }
            report.folded.append(.init(copy: copy, file: file, base: base?.candidate.source))
        case .conflict(let clash): keep(clash)
        case .noBase: keep("no earlier version of \(file) is known to serve as the base")
        case .notText: keep("not a text file")
        }
    }

    /// The base a fold of a conflict copy holding `copyBytes` into the file at `file`
    /// (relative to the folder, holding `fileBytes`) takes, as ``fold()`` chooses it
    /// (``BaseChoice`` over the history, Syncthing's `.stversions` and git), with where
    /// it came from; nil when no earlier version is known. For `folio resolve --merge`,
    /// which merges with conflict markers where ``fold()`` would keep the copy.
    package func base(for file: String, file fileBytes: [UInt8], copy copyBytes: [UInt8]) -> (source: BaseCandidate.Source, bytes: [UInt8])? {
        Self.chooseBase(for: file, file: fileBytes, copy: copyBytes, history: history, root: root, useGit: options.useGit)
            .map { (source: $0.candidate.source, bytes: $0.bytes) }
    }

    /// Writes back, as conflict copies, the versions of a file that has copies which this
    /// device held since their common ancestor and which are now nowhere: not the file, not a
    /// copy, and not brought into either (what a version added over the ancestor is in
    /// neither). Syncthing can drop such a version: when several devices clash in one
    /// second, two losing versions get the same copy name and one overwrites the other.
    /// Returns the copies written.
    func rescueDroppedVersions(_ copies: [String]) -> [String] {
        var byRoot: [String: [String]] = [:]
        for copy in copies { byRoot[ConflictCopies.rootOriginal(of: copy) ?? copy, default: []].append(copy) }
        var written: [String] = []
        for (file, group) in byRoot.sorted(by: { $0.key < $1.key }) {
            guard let fileBytes = try? FileReading.contents(of: root + "/" + file) else { continue }
            let copyBytes = group.compactMap { try? FileReading.contents(of: root + "/" + $0) }
            guard let first = copyBytes.first,
                  let base = Self.chooseBase(for: file, file: fileBytes, copy: first, history: history, root: root, useGit: options.useGit)
            else { continue }
            let present = [fileBytes] + copyBytes
            let presentHashes = Set(present.map(SHA256.hash))
            let presentUnits = present.map { VersionUnits($0, path: file).units }
            // The versions held at the file and at its copies since the base, each with what it
            // added over the base (not over the version recorded before it: that may be
            // another device's, which this one never grew from).
            let baseUnits = VersionUnits(base.bytes, path: file).units
            for path in [file] + group {
                for version in history.versions(of: path) where version.time > base.candidate.time && !presentHashes.contains(version.hash) {
                    guard let bytes = history.contents(of: version.hash) else { continue }
                    let added = VersionUnits(bytes, path: file).units.subtracting(baseUnits)
                    guard !added.isEmpty, !presentUnits.contains(where: { added.isSubset(of: $0) }) else { continue }
                    let name = Self.rescueName(for: file, taken: { (try? FileStamp.of(self.root + "/" + $0)) != nil })
                    // As private as the file it is a version of.
                    let mode = (try? FileStamp.of(root + "/" + file))?.permissions ?? 0o666
                    guard (try? AtomicFile.write(bytes, to: root + "/" + name, mode: nil, creating: mode & 0o777) { $0 == nil }) == true else { continue }
                    try? history.record(bytes, at: name, time: Syscall.nanosecondsNow())
                    written.append(name)
                }
            }
        }
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

    /// The base for folding a copy (hash `copy`) into `path` (hash `file`): from Folio's
    /// history, Syncthing's `.stversions` and git, by ``BaseChoice``.
    static func chooseBase(
        for path: String, file: [UInt8], copy: [UInt8], history: VersionHistory, root: String, useGit: Bool
    ) -> (candidate: BaseCandidate, bytes: [UInt8])? {
        var external: [SHA256.Digest: [UInt8]] = [:]
        var candidates = history.versions(of: path).map { BaseCandidate(hash: $0.hash, time: $0.time, source: .history) }
        var others = ExternalBases.syncthingVersions(root: root, path: path)
        if useGit, let committed = ExternalBases.git(root: root, path: path) { others.append(committed) }
        for (candidate, bytes) in others {
            candidates.append(candidate)
            external[candidate.hash] = bytes
        }
        // The same content seen more than once at the path counts once, at its first time.
        var seen = Set<SHA256.Digest>()
        candidates = candidates.sorted { $0.time < $1.time }.filter { seen.insert($0.hash).inserted }
        let eligible = BaseChoice.eligible(from: candidates, file: SHA256.hash(file), copy: SHA256.hash(copy), firstSeen: history.firstSeen)
        // A candidate whose content cannot be read back (pruned, damaged) is passed over.
        return BaseChoice.ancestor(among: eligible, contents: { external[$0.hash] ?? history.contents(of: $0.hash) }, path: path, file: file, copy: copy)
    }

    /// Whether `path` (with stamp `stamp`) has been left alone for the quiet period, and
    /// no sync tool's temporary file for it is in its folder.
    func isQuiet(_ path: String, _ stamp: FileStamp) -> Bool {
        let quiet = options.quietPeriod.components
        let period = quiet.seconds * 1_000_000_000 + quiet.attoseconds / 1_000_000_000
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
