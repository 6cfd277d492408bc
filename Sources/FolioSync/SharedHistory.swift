import FolioSystem

/// A shared folder's version history, kept in the folder itself so that the sync tool
/// carries it to every device, as git carries commits: `.folio/` holds one append-only
/// log per device (`logs/DEVICE.log`, ``VersionEvent`` lines; a device writes only its
/// own, so the logs never conflict), the versions by content (`versions/HH/HASH`), and a
/// `.gitignore` holding `*` (git never sees any of it). Read together, the logs are the
/// ``VersionGraph`` a fold takes its base from.
///
/// Crash-safe: the contents are written (atomically) before the log lines naming them,
/// the lines are appended and flushed, and a last line cut short is passed over (and
/// ended before the next append).
package final class SharedHistory {
    /// How much history is kept: superseded versions go once every device has moved past
    /// them (see ``VersionGraph/superseded(present:)``); beyond that, at most
    /// `contentBytes` of version contents (the oldest no file or device holds go first).
    package struct Limits: Sendable, Hashable {
        /// Bytes of version contents kept at most (default 64 MiB).
        package var contentBytes = 64 << 20

        /// The defaults.
        package init() {}
    }

    /// Files larger than this are not kept: they are not hand-edited records.
    package static let largestVersion = 4 << 20
    /// The folder's name inside the shared folder.
    package static let folderName = ".folio"

    /// The shared folder.
    package let root: RootedFolder
    /// This device's name: made once per state folder.
    package let device: String
    /// The graph of every log read so far.
    package private(set) var graph = VersionGraph()
    package let limits: Limits

    private var folder: RootedPath { root[Self.folderName] }
    private var logsFolder: RootedPath { folder.appending("logs") }
    private var ownLog: RootedPath { logsFolder.appending(device + ".log") }
    /// Per log: its identity and how far it was read (to the end of its last whole line).
    private var readUpTo: [String: (inode: UInt64, offset: Int64)] = [:]
    private var logged: [String: [VersionEvent]] = [:]
    private var nextSequence = 1
    private var pending: [VersionEvent] = []
    private var contentsToFlush = false

    /// The history of the shared folder `root`, as the device whose state folder is
    /// `state` (where its name is kept) sees it.
    package init(root: RootedFolder, state: RootedFolder, limits: Limits = Limits()) throws(SystemError) {
        self.root = root
        self.limits = limits
        device = try Self.deviceName(state: state)
        _ = refresh()
        nextSequence = (logged[device]?.map(\.id.sequence).max() ?? 0) + 1
    }

    /// The device name kept in `state/device` (16 hex digits), made on first use.
    static func deviceName(state: RootedFolder) throws(SystemError) -> String {
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

    /// Whether the folder has a history yet (some device logged something).
    // A probe: a logs folder not there (or not to be looked at) is "no history yet"; making it in ensureFolder() reports a disk that refuses.
    package var exists: Bool { (try? FileStamp.of(logsFolder))?.isDirectory == true }

    /// Reads what the logs gained since they were last read (another device's lines
    /// arrive through the sync tool). Returns whether the graph changed.
    @discardableResult
    package func refresh() -> Bool {
        let names = Trash.entries(logsFolder)
        var changed = false
        var rebuild = false
        for name in names where name.hasSuffix(".log") && !name.hasPrefix(".") {
            let device = String(name.dropLast(4))
            let path = logsFolder.appending(name)
            // Another device's log that cannot be read now is not marked read: it is read at the next refresh, and meanwhile a fold that needs its events keeps the copy and says why.
            guard let stamp = try? FileStamp.of(path), stamp.type == .regular else { continue }
            var start: Int64 = 0
            if let known = readUpTo[device] {
                if known.inode == stamp.inode && stamp.size >= known.offset {
                    guard stamp.size > known.offset else { continue }
                    start = known.offset
                } else {
                    // Compacted by its device (rewritten whole): read again from the start.
                    logged[device] = []
                    rebuild = true
                }
            }
            // As above: not marked read, so read at the next refresh.
            guard let fd = try? path.open(for: .reading) else { continue }
            defer { Syscall.close(fd) }
            guard let bytes = try? Syscall.read(fd, count: Int(stamp.size - start), at: start, path: path.path) else { continue }
            let whole = bytes.lastIndex(of: 10).map { $0 + 1 } ?? 0
            let events = VersionEvent.parse(Array(bytes[..<whole]), device: device)
            readUpTo[device] = (stamp.inode, start + Int64(whole))
            logged[device, default: []] += events
            if !rebuild { for event in events { graph.insert(event) } }
            changed = changed || !events.isEmpty
        }
        if rebuild {
            graph = VersionGraph(logged.values.flatMap { $0 } + pending)
            changed = true
        }
        return changed
    }

    /// Runs `body` on the graph (whose answers it may cache).
    package func withGraph<T>(_ body: (inout VersionGraph) -> T) -> T { body(&graph) }

    /// Logs an event of this device (written by ``flush()``), and returns it.
    @discardableResult
    package func log(_ kind: VersionEvent.Kind, path: String, version: SHA256.Digest?, parents: [VersionEvent.ID] = [], copy: String? = nil, time: Int64) -> VersionEvent {
        let event = VersionEvent(id: .init(device: device, sequence: nextSequence), time: time, kind: kind, parents: parents, version: version, path: path, copy: copy)
        nextSequence += 1
        pending.append(event)
        graph.insert(event)
        return event
    }

    /// Keeps `bytes` (whose hash is `hash`) among the versions, unless it is already.
    package func store(_ bytes: [UInt8], hash: SHA256.Digest) throws(SystemError) {
        let path = contentPath(hash)
        // A probe: content already there is not written again; one that cannot be looked at is written, and the write reports a disk that refuses.
        if (try? FileStamp.of(path)) != nil { return }
        try ensureFolder()
        // Flushed with the file system before the log line naming it is appended (``flush()``):
        // one flush for a batch, not two per version.
        _ = try AtomicFile.write(bytes, to: path, mode: nil, creating: 0o666, durable: false, replacingOnly: { $0 == nil })
        contentsToFlush = true
    }

    /// The content with this hash, checked against it; nil when it is not (or not yet) here.
    package func contents(of hash: SHA256.Digest) -> [UInt8]? {
        // Content that cannot be read is as good as not here yet (it travels with the sync tool): the fold keeps the copy and says why, and a rescue waits for the next pass.
        guard let bytes = try? FileReading.contents(of: contentPath(hash)), SHA256.hash(bytes) == hash else { return nil }
        return bytes
    }

    /// Makes the logged events durable: appended to this device's log and flushed.
    package func flush() throws(SystemError) {
        guard !pending.isEmpty else { return }
        try ensureFolder()
        if contentsToFlush {
            // The contents the lines name are on disk before the lines are.
            try AtomicFile.flushFileSystem(containing: folder)
            contentsToFlush = false
        }
        var text: [UInt8] = []
        // Only to end a line a crash cut short: a log that cannot be looked at is appended to as it is, and the append reports a disk that refuses.
        let stamp = try? FileStamp.of(ownLog)
        if let stamp, stamp.size > 0, let fd = try? ownLog.open(for: .reading) {
            // A last line cut short by a crash is ended, so the next one parses.
            if let last = try? Syscall.read(fd, count: 1, at: stamp.size - 1, path: ownLog.path), last != [10] { text.append(10) }
            Syscall.close(fd)
        }
        for event in pending { text += event.line }
        try AtomicFile.append(text, to: ownLog, mode: 0o666, flushing: true)
        logged[device, default: []] += pending
        pending.removeAll()
        // Only how far our own log is read: unknown, the next refresh reads our lines again, events the graph holds already (by id).
        if let after = try? FileStamp.of(ownLog) { readUpTo[device] = (after.inode, after.size) }
    }

    /// Drops what no fold can need any more: this device's superseded events from its
    /// log (rewritten, atomically), and the contents no kept event names; then, past
    /// ``Limits/contentBytes``, the oldest contents that neither a device's last
    /// version nor a file (`present`: path → content) holds. Returns the bytes of
    /// contents removed.
    @discardableResult
    package func compact(present: [String: SHA256.Digest]) throws(SystemError) -> Int {
        try flush()
        let superseded = graph.superseded(present: present)
        let own = logged[device] ?? []
        let kept = own.filter { !superseded.contains($0.id) }
        if kept.count != own.count {
            var text: [UInt8] = []
            for event in kept { text += event.line }
            _ = try AtomicFile.write(text, to: ownLog, mode: nil, creating: 0o666, replacingOnly: nil)
            logged[device] = kept
            // Only how far our own log is read: unknown, the next refresh reads our lines again, events the graph holds already (by id).
            if let after = try? FileStamp.of(ownLog) { readUpTo[device] = (after.inode, after.size) }
        }
        // Contents: those only superseded events name go; then the size limit.
        var named: [SHA256.Digest: Int64] = [:]
        for event in graph.events.values where !superseded.contains(event.id) {
            if let version = event.version { named[version] = max(named[version] ?? 0, event.time) }
        }
        var protected = Set(present.values)
        let paths = graph.paths
        for device in graph.devices {
            for path in paths { if let version = graph.latest(device: device, path: path)?.version { protected.insert(version) } }
        }
        var stored: [(hash: SHA256.Digest, size: Int64)] = []
        for prefix in Trash.entries(folder.appending("versions")) where prefix.count == 2 {
            for name in Trash.entries(folder.appending("versions/" + prefix)) {
                // Content that cannot be looked at is not counted and never removed: kept, the safe way.
                guard let hash = SHA256.Digest(hex: name), let stamp = try? FileStamp.of(contentPath(hash)) else { continue }
                stored.append((hash, stamp.size))
            }
        }
        var removed = 0
        var total = stored.reduce(0) { $0 + $1.size }
        for (hash, size) in stored where named[hash] == nil && !protected.contains(hash) {
            // Best effort: content left behind is only space, removed at the next compaction.
            try? AtomicFile.remove(contentPath(hash))
            (removed, total) = (removed + Int(size), total - size)
        }
        if total > Int64(limits.contentBytes) {
            let byAge = stored.filter { named[$0.hash] != nil && !protected.contains($0.hash) }.sorted { named[$0.hash]! < named[$1.hash]! }
            for (hash, size) in byAge where total > Int64(limits.contentBytes) {
                // Best effort: content left behind is only space, removed at the next compaction.
                try? AtomicFile.remove(contentPath(hash))
                (removed, total) = (removed + Int(size), total - size)
            }
        }
        return removed
    }

    /// The size of this device's log, in bytes.
    // A log that cannot be looked at is not compacted now; the next flush, which appends to it, reports a disk that refuses.
    package var ownLogSize: Int64 { (try? FileStamp.of(ownLog))?.size ?? 0 }

    private func contentPath(_ hash: SHA256.Digest) -> RootedPath {
        let hex = hash.description
        return folder.appending("versions/" + hex.prefix(2) + "/" + hex)
    }

    /// Makes `.folio/` with its `.gitignore` (so that git never tracks it) and `logs/`.
    private func ensureFolder() throws(SystemError) {
        guard !exists else { return }
        try logsFolder.makeDirectories()
        let ignore = folder.appending(".gitignore")
        // A probe: an existing .gitignore is kept; the write (only where none is) reports a disk that refuses.
        if (try? FileStamp.of(ignore)) == nil {
            _ = try AtomicFile.write(Array("# Folio's shared history of this folder: never committed.\n*\n".utf8), to: ignore, mode: nil, replacingOnly: { $0 == nil })
        }
    }
}
