import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions

/// What each change in the folder is recorded as in the shared history.
extension SharedFolder {
    /// Records what `path` holds now; false when it changed too recently to be read as
    /// done: then it is recorded only when not `waitingForQuiet` (what is on disk is a
    /// version, and it is read again once left alone).
    @discardableResult
    package func observe(_ path: String, time: Int64, waitingForQuiet: Bool = true, read done: Result<VersionRead, SystemError>? = nil) -> Bool {
        let previous = history.graph.latest(device: history.device, path: path)
        let read: VersionRead
        do { read = try (done ?? Result { () throws(SystemError) in VersionRead(try Self.read(rootFolder[path])) }).get() } catch {
            if error.code == Syscall.noSuchFile, let previous, previous.kind != .delete {
                history.log(.delete, path: path, version: nil, parents: [previous.id], time: time)
            }
            return true
        }
        // What is on disk is the version, whatever the sync tool is bringing next: no look for its temporary file.
        let quiet = isQuiet(path, read.stamp, for: min(options.recordQuietPeriod, options.quietPeriod), consideringTransfers: false)
        guard quiet || !waitingForQuiet else { return false }
        if copyNames.original(of: path) != nil { history.becomeShared("a conflict copy (\(TextEscaping.name(path))) was seen") }
        let bytes = read.bytes
        guard let hash = read.hash else { return true }
        guard previous?.version != hash else { return quiet }
        // Not stored (a full disk): not recorded either, and read again at the next look.
        do { try history.store(bytes, hash: hash) } catch { return false }
        let (kind, parents) = classify(hash, at: path, stamp: read.stamp, previous: previous)
        history.log(kind, path: path, version: hash, parents: parents, time: time)
        if kind == .arrival && copyNames.original(of: path) == nil { lastArrival = time }
        return quiet
    }

    /// The contents and stamps of `paths`, read on every core (in runs of a folder's
    /// files, each folder opened once per run): what a record of the whole folder reads.
    /// What `alreadyRead` holds is taken as read, not read again.
    package func readAll(_ paths: [String], alreadyRead: [FileRead] = []) -> [Result<(bytes: [UInt8], stamp: FileStamp), SystemError>] {
        let folder = rootFolder
        let known = Dictionary(alreadyRead.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        return paths.mapOnEveryCore { run in
            // Each folder is opened once for the run of its files still to read.
            let unread = run.filter { known[$0] == nil }
            var reads = FileReading.contentsAndStamps(of: unread, in: folder).makeIterator()
            return run.map { path in
                if let read = known[path] { return .success((read.bytes, read.stamp)) }
                // One result per path read, in order: there is always a next one here.
                return reads.next()!
            }
        }
    }

    /// What a change of `path` to content `hash` was, from what this device last saw
    /// there (`previous`) and the file's stamp: a conflict copy is only ever an arrival; a
    /// version some device made that this device had not been past is an arrival (the
    /// sync tool brought it); a file that now holds what HEAD's commit holds was written
    /// by git (a checkout, a reset, a stash), or committed before it was seen; a file
    /// whose modification time was set into its past (as sync tools do) arrived; a file
    /// whose previous content a conflict copy now holds lost a clash to an arrival;
    /// anything else is an edit made here, from `previous` (a first sighting: from nothing).
    package func classify(_ hash: SHA256.Digest, at path: String, stamp: FileStamp, previous: VersionEvent?) -> (VersionEvent.Kind, [VersionEvent.ID]) {
        let graph = history.graph
        if copyNames.original(of: path) != nil { return (.arrival, []) }
        guard let previous, previous.kind != .delete, let before = graph.node(previous.id) else {
            return (graph.makers(of: hash).isEmpty ? .edit : .arrival, [])
        }
        let past = graph.ancestors(of: before)
        // (As the versions they are: several devices' folds of one copy are one.)
        if graph.makers(of: hash).contains(where: { !past.contains(graph.node($0) ?? $0) }) { return (.arrival, []) }
        if let git, git.matchesHead(path, hash: hash) { return (.gitCheckout, []) }
        // Written by a tool that kept an older modification time (Syncthing, Dropbox, rsync
        // and Unison give a file they bring the time it was saved where it was made): not
        // an edit made here. An editor's save changes both times together.
        let gap = stamp.changed - stamp.modified
        if gap > Self.preservedTimeGap { return (.arrival, []) }
        // The sync tool resolved a clash: this device's version is now its copy — or was,
        // until another loser's copy of the same name overwrote it (then only a copy made
        // just now, and a file renamed into place a little after its time was set, tell).
        let now = options.clock.wallNanoseconds
        for copy in copies(of: path) {
            // Probes of a copy that may be going away: one that cannot be looked at or read is no evidence of an arrival.
            guard let copyStamp = try? FileStamp.of(rootFolder[copy]) else { continue }
            if gap > Self.renameGap && now - max(copyStamp.modified, copyStamp.changed) < Self.clashWindow { return (.arrival, []) }
            if gap > Self.renameGap, let held = previous.version, (try? FileReading.contents(of: rootFolder[copy])).map(SHA256.hash) == held { return (.arrival, []) }
        }
        return (.edit, [previous.id])
    }

    /// The conflict copies of `path` in its folder (none while the folder cannot be
    /// listed: they are looked for again at the next pass).
    package func copies(of path: String) -> [String] {
        let folder = RelativePath(path).parent
        return rootFolder[folder.string].namesIfListable().map { folder.appending($0).string }.filter { copyNames.rootOriginal(of: $0) == path }
    }
}
