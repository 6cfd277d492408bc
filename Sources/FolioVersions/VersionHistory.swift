import FolioSystem

/// The versions of each text file Folio has seen in a folder (or a pair of replicas),
/// kept in its state folder: a log of `time hash size path` lines (`history.log`,
/// appended in flushed blocks; a line cut short by a crash is ignored) and the contents,
/// stored once per hash in the state's ``BaseStore``. It is what a conflict copy is
/// folded against: see ``BaseChoice``. Bounded by ``Limits``; ``prune(now:keeping:)``
/// drops what is past them.
package final class VersionHistory {
    /// One version of one path: when Folio first saw that path hold it.
    package struct Version: Sendable, Hashable {
        /// The path, relative to the folder.
        package var path: String
        /// The content's SHA-256.
        package var hash: SHA256.Digest
        /// When it was first seen at this path, in nanoseconds since the epoch.
        package var time: Int64
        /// Its size in bytes.
        package var size: Int

        /// A version.
        package init(path: String, hash: SHA256.Digest, time: Int64, size: Int) {
            (self.path, self.hash, self.time, self.size) = (path, hash, time, size)
        }
    }

    /// How much history is kept: the newest `versionsPerPath` of each path, none older
    /// than `maximumAgeDays` (but always each path's newest), and at most `totalBytes`
    /// of contents (the oldest go first). The defaults hold months of hand edits.
    package struct Limits: Sendable, Hashable {
        /// Versions kept per path.
        package var versionsPerPath = 32
        /// Age past which a version goes (unless it is its path's newest).
        package var maximumAgeDays = 180
        /// Bytes of contents kept in all.
        package var totalBytes = 256 << 20

        /// The defaults.
        package init() {}
    }

    /// Files larger than this are not kept: they are not hand-edited records.
    package static let largestVersion = 4 << 20

    package let state: RootedFolder
    package let contents: BaseStore
    private var log: RootedPath { state["history.log"] }
    /// The log's entries as last read, dropped once what was recorded is flushed: a
    /// watcher records for weeks and reads them only to fold a copy, so it does not
    /// hold every version in memory between folds.
    private var cachedEntries: [Version]?
    /// Whether ``latest`` and ``first`` cover the whole log (read once, then kept up to
    /// date by each record; a sync that only records never reads the log).
    private var indexed = false
    private var latest: [String: SHA256.Digest] = [:]
    private var first: [SHA256.Digest: Int64] = [:]
    private var pending: [Version] = []
    /// When the log was last pruned (`history.pruned`).
    private lazy var pruned = GrowthMarker(path: state["history.pruned"])

    /// The history kept in the state folder `state` (empty when there is none yet).
    package convenience init(state: RootedFolder) {
        self.init(state: state, contents: BaseStore(state: state, known: []))
    }

    package init(state: RootedFolder, contents: BaseStore) {
        self.state = state
        self.contents = contents
    }

    /// The log's entries and those pending, without indexing them.
    private func unindexedEntries() -> [Version] {
        if let cachedEntries { return cachedEntries }
        // Known gap: an unreadable versions log reads as no history (`folio history` shows none; pruning then keeps everything); saying so needs the history's readers to throw, a change to every caller.
        let bytes = (try? AtomicFile.contentsIfPresent(log)) ?? nil ?? []
        return Self.parse(bytes) + pending
    }

    private var entries: [Version] {
        if let cachedEntries { return cachedEntries }
        let all = unindexedEntries()
        if !indexed {
            for entry in all { note(entry) }
            indexed = true
        }
        cachedEntries = all
        return all
    }

    /// Reads the log once, for ``latest`` and ``first``.
    private func indexIfNeeded() {
        if !indexed { _ = entries }
    }

    private func note(_ entry: Version) {
        latest[entry.path] = entry.hash
        if first[entry.hash].map({ entry.time < $0 }) ?? true { first[entry.hash] = entry.time }
    }

    /// The log's entries; a line that does not parse (cut short) is skipped.
    package static func parse(_ bytes: [UInt8]) -> [Version] {
        var result: [Version] = []
        var start = 0
        while let end = bytes[start...].firstIndex(of: 10) {
            let fields = bytes[start..<end].split(separator: 9, maxSplits: 3, omittingEmptySubsequences: false)
            start = end + 1
            guard fields.count == 4, let time = LineFields.integer(fields[0]),
                  let hash = SHA256.Digest(hex: String(decoding: fields[1], as: UTF8.self)),
                  let size = LineFields.integer(fields[2]), let path = LineFields.unescaped(fields[3])
            else { continue }
            result.append(Version(path: path, hash: hash, time: time, size: Int(size)))
        }
        return result
    }

    /// Appends the log line of `version` (byte by byte: a first sync writes one per file).
    package static func appendLine(_ version: Version, to out: inout [UInt8]) {
        LineFields.appendDecimal(version.time, to: &out)
        out.append(9)
        version.hash.appendHex(to: &out)
        out.append(9)
        LineFields.appendDecimal(Int64(version.size), to: &out)
        out.append(9)
        LineFields.appendEscaped(version.path, to: &out)
        out.append(10)
    }

    /// Every version seen, oldest first.
    package var versions: [Version] { entries }

    /// The versions seen at `path`, oldest first.
    package func versions(of path: String) -> [Version] { entries.filter { $0.path == path } }

    /// When content with this hash was first seen at any path, or nil if never.
    package func firstSeen(_ hash: SHA256.Digest) -> Int64? {
        indexIfNeeded()
        return first[hash]
    }

    /// The content with this hash, checked against it; nil if it is not kept.
    package func contents(of hash: SHA256.Digest) -> [UInt8]? { contents.load(hash) }

    /// Notes that `path` holds `bytes` at `time` (ns since the epoch): a new version when
    /// it differs from the last one recorded there. Binary and very large files are
    /// not kept. Written by ``flush()``.
    package func record(_ bytes: [UInt8], at path: String, time: Int64) throws(SystemError) {
        guard bytes.count <= Self.largestVersion, !bytes.prefix(8000).contains(0) else { return }
        let hash = SHA256.hash(bytes)
        indexIfNeeded()
        try record(bytes, hash: hash, at: path, time: time)
    }

    /// Records without reading the log first (a sync's hot path: the caller stores each
    /// version once); once the log is read, a version the path already holds is not
    /// noted again, and content the history names is not stored again.
    package func record(_ bytes: [UInt8], hash: SHA256.Digest, at path: String, time: Int64) throws(SystemError) {
        guard !indexed || latest[path] != hash else { return }
        if !indexed || first[hash] == nil { try contents.store(bytes, hash: hash) }
        let version = Version(path: path, hash: hash, time: time, size: bytes.count)
        pending.append(version)
        cachedEntries?.append(version)
        if indexed { note(version) }
    }

    /// Makes what was recorded durable: the contents first, then the log lines naming them.
    /// `contentsAreDurable`: the caller flushed the contents and then the file system
    /// (a sync does, for its copies), so only what this flush itself appends needs another.
    package func flush(contentsAreDurable: Bool = false) throws(SystemError) {
        try flush(pendingText(), contentsAreDurable: contentsAreDurable)
    }

    private func pendingText() -> [UInt8] { Self.lines(pending) }

    /// The log lines of `versions`, in their order.
    package static func lines(_ versions: [Version]) -> [UInt8] {
        var text: [UInt8] = []
        for version in versions { appendLine(version, to: &text) }
        return text
    }

    private func flush(_ text: [UInt8], contentsAreDurable: Bool) throws(SystemError) {
        guard !pending.isEmpty else { return }
        let appended = try contents.flush()
        if Syscall.syncWaitsForWrites && (appended || !contentsAreDurable) { try AtomicFile.flushFileSystem(containing: state.root) }
        try AtomicFile.append(text, to: log, flushing: true)
        pending.removeAll()
        cachedEntries = nil
    }

    /// Flushes (``flush(contentsAreDurable:)``), then prunes (``prune(now:limits:keeping:)``)
    /// once the log has grown by half since it was last pruned, so that most runs do not
    /// read it for this.
    package func pruneIfGrown(
        now: Int64, limits: Limits = Limits(), keeping: @autoclosure () -> Set<SHA256.Digest> = [], contentsAreDurable: Bool = false
    ) throws(SystemError) {
        let text = pendingText()
        // Only when to prune: a log that cannot be looked at counts as empty (not pruned
        // now), and the flush reports a disk that refuses. Its size after the flush is
        // known before it, so that when due the entries are gathered first, from the log
        // as it was and those pending: what is appended is not read back.
        let due = pruned.isDue(size: ((try? FileStamp.of(log))?.size ?? 0) + Int64(text.count))
        // Not indexed: nothing after a sync's prune asks which version a path holds.
        let all = due ? unindexedEntries() : []
        try flush(text, contentsAreDurable: contentsAreDurable)
        guard due else { return }
        try prune(all, now: now, limits: limits, keeping: keeping())
        // Only when to prune next: unknown, the next sync prunes sooner, never later.
        try pruned.compacted(to: (try? FileStamp.of(log))?.size ?? 0)
    }

    /// Drops the versions past `limits` at `now` (ns since the epoch), then gives the
    /// space of contents no longer named back (keeping also `keeping`: the archive's).
    /// Does nothing when nothing is past them.
    package func prune(now: Int64, limits: Limits = Limits(), keeping: Set<SHA256.Digest> = []) throws(SystemError) {
        try flush()
        try prune(entries, now: now, limits: limits, keeping: keeping)
    }

    /// Prunes the log that holds `all` (flushed).
    private func prune(_ all: [Version], now: Int64, limits: Limits, keeping: Set<SHA256.Digest>) throws(SystemError) {
        let kept = Self.retained(all, now: now, limits: limits)
        guard kept.count != all.count else { return }
        _ = try AtomicFile.write(Self.lines(kept), to: log, mode: 0o600, replacingOnly: nil)
        cachedEntries = kept
        (latest, first) = ([:], [:])
        for entry in kept { note(entry) }
        try contents.compact(keeping: keeping.union(kept.map(\.hash)))
    }

    /// The versions `limits` keep at `now`, in their order. Pure.
    package static func retained(_ versions: [Version], now: Int64, limits: Limits) -> [Version] {
        let oldest = now - Int64(limits.maximumAgeDays) * 86_400 * 1_000_000_000
        // One look-up a version, newest first: how many of its path's versions are as new or newer.
        var seen: [String: Int] = [:], countFromEnd = [Int](repeating: 0, count: versions.count)
        seen.reserveCapacity(versions.count)
        for index in versions.indices.reversed() {
            countFromEnd[index] = { (count: inout Int) -> Int in
                count += 1
                return count
            }(&seen[versions[index].path, default: 0])
        }
        func isNewest(_ index: Int) -> Bool { countFromEnd[index] == 1 }
        var keep = versions.indices.map { index in
            isNewest(index) || (countFromEnd[index] <= limits.versionsPerPath && versions[index].time >= oldest)
        }
        // Over the size limit: the oldest versions go first, each path's newest never.
        var bytes = 0, counted = Set<SHA256.Digest>(minimumCapacity: versions.count)
        for index in versions.indices where keep[index] && counted.insert(versions[index].hash).inserted { bytes += versions[index].size }
        if bytes > limits.totalBytes {
            var stillNamed: [SHA256.Digest: Int] = [:]
            for index in versions.indices where keep[index] { stillNamed[versions[index].hash, default: 0] += 1 }
            for index in versions.indices where bytes > limits.totalBytes && keep[index] && !isNewest(index) {
                keep[index] = false
                stillNamed[versions[index].hash]! -= 1
                if stillNamed[versions[index].hash] == 0 { bytes -= versions[index].size }
            }
        }
        return versions.indices.filter { keep[$0] }.map { versions[$0] }
    }
}
