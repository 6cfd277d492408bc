import FolioFolder
import FolioSystem
import FolioVersions

/// A folder's version history as one device keeps it, and, when a sync tool shares the
/// folder, as every device shares it.
///
/// This device's own history lives in its state folder, outside the folder
/// (`STATE/history/`): its append-only log (`log`, ``VersionEvent`` lines) and the
/// contents of the versions it saw, appended to one pack (``BaseStore``: `bases.pack`
/// with its index), so that recording 10,000 files writes three files, not 10,000.
///
/// Only a folder a sync tool shares (``sharedBecause``, see ``FolderSharing``) gets a
/// hidden `.folio/`, carried to every device by the sync tool as git carries commits:
/// `logs/DEVICE.log`, each device's log as others need it (a device writes only its
/// own, so the logs never conflict; see ``publishable(_:)``), `versions/DEVICE/HASH`, the contents of versions this device
/// replaced by an edit or a fold while another device's log names the path (the versions
/// another device may need as a base: never what every device's file already holds),
/// pruned once every device's log has moved past them, and a `.gitignore` holding `*`.
/// Read together, the logs are the ``VersionGraph`` a fold takes its base from.
///
/// Crash-safe: the contents are written before the log lines naming them, and the lines
/// appended and flushed; a last line cut short is passed over (and ended before the next
/// append). The published log is written again whole when it is not as this device last
/// left it (a crash between the two logs, `.folio/` removed, a compaction).
package final class SharedHistory {
    /// Files larger than this are not kept: they are not hand-edited records.
    package static let largestVersion = 4 << 20
    /// The folder's name inside the shared folder.
    package static let folderName = ".folio"
    /// The local history's folder inside the state folder.
    package static let localFolderName = "history"

    /// The folder.
    package let root: RootedFolder
    /// This device's name: made once per state folder.
    package let device: String
    /// The graph of every log read so far (less what compaction found no fold can need).
    package internal(set) var graph = VersionGraph()
    /// Why the folder is taken for shared by a sync tool (`Syncthing's .stfolder`), or
    /// nil: then nothing is written into the folder.
    package internal(set) var sharedBecause: String?
    /// Whether `folio.yaml` says `shared: false`: then nothing makes the folder shared.
    package let declaredUnshared: Bool
    /// Whether nothing may be written (a dry run): an old `.folio/` is read, not moved.
    package let readOnly: Bool

    /// `STATE/history/`.
    package let local: RootedFolder
    /// The contents of the versions this device saw, by hash.
    package let contentStore: BaseStore
    package var ownLog: RootedPath { local["log"] }
    package var folder: RootedPath { root[Self.folderName] }
    package var logsFolder: RootedPath { folder.appending("logs") }
    package var publishedLog: RootedPath { logsFolder.appending(device + ".log") }
    /// Per other device's log: its identity and how far it was read (to the end of its last whole line).
    package var readUpTo: [String: (inode: UInt64, offset: Int64)] = [:]
    /// Each device's events as read (this device's: as in its log), less what compaction dropped.
    package var logged: [String: [VersionEvent]] = [:]
    package var nextSequence = 1
    package var pending: [VersionEvent] = []
    /// The other devices whose logs are in `.folio/logs/` (one that only saw files logs nothing others need, yet may edit them).
    package var otherDevices = Set<String>()
    /// Contents to publish in `.folio/versions/` with the next flush.
    package var toPublish: [SHA256.Digest] = []
    /// The numbers of this device's events its published log holds, and that log's size
    /// after the last write; nil when not known (the next flush checks it whole).
    package var publishedIDs: Set<Int>?
    package var publishedLogSize: Int64 = 0
    /// Contents published since the last compaction (which prunes them).
    package internal(set) var publishedSinceCompaction = 0
    /// How many contents this device's `.folio/versions/DEVICE/` holds, as the last
    /// compaction left it and publishing since; nil when not yet counted (before the first).
    package internal(set) var publishedLeft: Int?
    /// Whether another device's log gained lines since the last compaction: it may have
    /// moved past versions this device published, which the next compaction prunes.
    package internal(set) var othersLoggedSinceCompaction = false
    /// Whether another device's log was rewritten (compacted) since the last compaction:
    /// lines this device publishes may have become settled (``leavingOutSettled(_:)``).
    package internal(set) var othersCompactedSinceCompaction = false

    /// The history of the folder `root`, as the device whose state folder is `state`
    /// (where its name and its own history are kept) sees it. A history an earlier
    /// Folio kept in the folder's `.folio/` is moved to the state folder (unless
    /// `readOnly`), and `.folio/` is removed when no sync tool shares the folder.
    package init(root: RootedFolder, state: RootedFolder, readOnly: Bool = false) throws(SystemError) {
        self.root = root
        self.readOnly = readOnly
        device = try Self.deviceName(state: state)
        local = try RootedFolder.creating(state.path + "/" + Self.localFolderName, mode: 0o700)
        contentStore = BaseStore(indexedIn: local)
        // folio.yaml read once for what it says of sharing and of conflict copies.
        let settings = SettingsFile.document(in: root)
        let declaredShared = FolderSharing.declared(in: settings)
        declaredUnshared = declaredShared == false
        sharedBecause = FolderSharing.evidence(root: root, device: device, declared: declaredShared)
        graph = VersionGraph(copyNames: settings.map(ConflictCopyNames.declared(in:)) ?? .builtIn)
        var own = try AtomicFile.contentsIfPresent(ownLog)
        if own == nil, let earlier = try? AtomicFile.contentsIfPresent(publishedLog) {
            // A history an earlier Folio kept in the folder itself.
            own = earlier
            if !readOnly { try adoptEarlierHistory(earlier) }
        }
        logged[device] = VersionEvent.parse(own ?? [], device: device)
        for event in logged[device]! { graph.insert(event) }
        nextSequence = (logged[device]!.map(\.id.sequence).max() ?? 0) + 1
        _ = refresh()
    }

    /// The device name kept in `state/device` (16 hex digits), made on first use.
    package static func deviceName(state: RootedFolder) throws(SystemError) -> String {
        let path = state["device"]
        if let bytes = try AtomicFile.contentsIfPresent(path) {
            let name = String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self)
            if name.count == 16, name.allSatisfy(\.isHexDigit) { return name }
        }
        let digits = Array("0123456789abcdef")
        let name = String((0..<16).map { _ in digits[Int.random(in: 0..<16)] })
        _ = try AtomicFile.write(Array((name + "\n").utf8), to: path, mode: 0o600, replacingOnly: nil)
        return name
    }

    /// Whether the folder is shared by a sync tool (and `.folio/` written).
    package var isShared: Bool { sharedBecause != nil }

    /// Takes the folder for shared from now on, for `reason`: the next flush publishes
    /// this device's log in `.folio/`.
    package func becomeShared(_ reason: @autoclosure () -> String) {
        guard sharedBecause == nil, !declaredUnshared else { return }
        sharedBecause = reason()
        publishedIDs = nil
    }

    /// Reads what the other devices' logs in `.folio/logs/` gained since they were last
    /// read (their lines arrive through the sync tool). Returns whether the graph changed.
    /// A log of another device there makes the folder shared.
    @discardableResult
    package func refresh() -> Bool {
        var changed = false
        var rebuild = false
        for name in logsFolder.namesIfListable() where name.hasSuffix(".log") && !name.hasPrefix(".") {
            let other = String(name.dropLast(4))
            guard other != device else { continue }
            let path = logsFolder.appending(name)
            // Another device's log that cannot be read now is not marked read: it is read at the next refresh, and meanwhile a fold that needs its events keeps the copy and says why.
            guard let stamp = try? FileStamp.of(path), stamp.type == .regular else { continue }
            becomeShared("another device's history is in \(Self.folderName)/logs")
            // A device seen for the first time: this one's lines are for it (see ``publishable(_:)``).
            if otherDevices.insert(other).inserted { publishedIDs = nil }
            var start: Int64 = 0
            if let known = readUpTo[other] {
                if known.inode == stamp.inode && stamp.size >= known.offset {
                    guard stamp.size > known.offset else { continue }
                    start = known.offset
                } else {
                    // Compacted by its device (rewritten whole): read again from the start.
                    logged[other] = []
                    rebuild = true
                    othersCompactedSinceCompaction = true
                }
            }
            // As above: not marked read, so read at the next refresh.
            guard let fd = try? path.open(for: .reading) else { continue }
            defer { Syscall.close(fd) }
            guard let bytes = try? Syscall.read(fd, count: Int(stamp.size - start), at: start, path: path.path) else { continue }
            let whole = bytes.lastIndex(of: 10).map { $0 + 1 } ?? 0
            let events = VersionEvent.parse(Array(bytes[..<whole]), device: other)
            readUpTo[other] = (stamp.inode, start + Int64(whole))
            logged[other, default: []] += events
            if !events.isEmpty { othersLoggedSinceCompaction = true }
            if !rebuild { for event in events { graph.insert(event) } }
            changed = changed || !events.isEmpty
        }
        if rebuild {
            rebuildGraph()
            changed = true
        }
        // A device seen for the first time gets this one's lines now, not at its next edit.
        // Best effort: what is not written now is written by the next refresh or flush.
        if isShared && publishedIDs == nil && !readOnly { try? flush() }
        return changed
    }

    /// The graph made again from what is logged (and pending).
    package func rebuildGraph() {
        graph = VersionGraph(logged.values.flatMap { $0 } + pending, copyNames: graph.copyNames)
    }

    /// Runs `body` on the graph (whose answers it may cache).
    package func withGraph<T>(_ body: (inout VersionGraph) -> T) -> T { body(&graph) }

    /// Logs an event of this device (written by ``flush()``), and returns it. An edit or
    /// a fold in a shared folder publishes the versions it replaced when other devices
    /// keep a history: one may still edit one of them, and need it as a base.
    @discardableResult
    package func log(_ kind: VersionEvent.Kind, path: String, version: SHA256.Digest?, parents: [VersionEvent.ID] = [], copy: String? = nil, time: Int64) -> VersionEvent {
        let event = VersionEvent(id: .init(device: device, sequence: nextSequence), time: time, kind: kind, parents: parents, version: version, path: path, copy: copy)
        nextSequence += 1
        pending.append(event)
        graph.insert(event)
        if isShared, kind == .edit || kind == .fold, !otherDevices.isEmpty {
            for parent in parents { if let replaced = graph.events[parent]?.version, replaced != version { toPublish.append(replaced) } }
        }
        return event
    }

    /// Keeps `bytes` (whose hash is `hash`) among this device's versions, unless it is already.
    package func store(_ bytes: [UInt8], hash: SHA256.Digest) throws(SystemError) {
        try contentStore.store(bytes, hash: hash)
    }

    /// The content with this hash, checked against it (this device's own, else one
    /// another device published); nil when it is not (or not yet) here.
    package func contents(of hash: SHA256.Digest) -> [UInt8]? {
        if let bytes = contentStore.load(hash) { return bytes }
        for publisher in folder.appending("versions").namesIfListable() {
            // Content that cannot be read is as good as not here yet (it travels with the sync tool): the fold keeps the copy and says why, and a rescue waits for the next pass.
            if let bytes = try? FileReading.contents(of: publishedPath(hash, by: publisher)), SHA256.hash(bytes) == hash { return bytes }
        }
        return nil
    }

    /// Makes the logged events durable: the contents they name, then the lines, appended
    /// to this device's log and flushed; in a shared folder, then published in `.folio/`.
    package func flush() throws(SystemError) {
        guard !pending.isEmpty || (isShared && publishedIDs == nil) else { return }
        guard !readOnly else { return }
        if !pending.isEmpty {
            let sizeBefore = ownLogSize
            // The contents the lines name are on disk before the lines are (the pack's
            // own flush, not the whole file system's: that may hold what others just wrote).
            do { try contentStore.flush(durably: true) } catch {
                // Versions whose contents were not written (a full disk) are forgotten, lines
                // and all: recorded again at the next look, when the disk may have room.
                let unwritten = Set(pending.filter { $0.version.map { !contentStore.contains($0) } ?? false }.map(\.id))
                if !unwritten.isEmpty {
                    pending.removeAll { unwritten.contains($0.id) }
                    rebuildGraph()
                }
                throw error
            }
            var text: [UInt8] = []
            if sizeBefore > 0, let fd = try? ownLog.open(for: .reading) {
                // A last line cut short by a crash is ended, so the next one parses.
                if let last = try? Syscall.read(fd, count: 1, at: sizeBefore - 1, path: ownLog.path), last != [10] { text.append(10) }
                Syscall.close(fd)
            }
            for event in pending { text += event.ownLine }
            try AtomicFile.append(text, to: ownLog, mode: 0o600, flushing: true)
            let fresh = pending
            logged[device, default: []] += pending
            pending.removeAll()
            try publish(fresh)
        } else {
            try publish([])
        }
    }

    /// The size of this device's log, in bytes.
    // A log that cannot be looked at is not compacted now; the next flush, which appends to it, reports a disk that refuses.
    package var ownLogSize: Int64 { (try? FileStamp.of(ownLog))?.size ?? 0 }

    /// `.folio/versions/DEVICE/HASH`: each device publishes (and prunes) only its own.
    package func publishedPath(_ hash: SHA256.Digest, by publisher: String? = nil) -> RootedPath {
        folder.appending("versions/" + (publisher ?? device) + "/" + hash.description)
    }
}
