import FolioFolder
import FolioSystem
import FolioVersions

/// What a device writes into a shared folder's `.folio/`, and how an earlier Folio's
/// history kept there is moved to the state folder.
extension SharedHistory {
    /// Publishes, in a shared folder, the contents waiting in ``toPublish``, then the
    /// lines of `fresh` (this device's events just logged) others can need, appended when
    /// the published log is as this device last left it, else the log written whole.
    package func publish(_ fresh: [VersionEvent]) throws(SystemError) {
        guard isShared, !readOnly else { return }
        try ensureFolder()
        for hash in toPublish {
            let path = publishedPath(hash)
            // A probe: content already there is not written again; one that cannot be looked at is written, and the write reports a disk that refuses.
            guard (try? FileStamp.of(path)) == nil, let bytes = contentStore.load(hash) else { continue }
            try path.parent.makeDirectories()
            // Durable: the contents the published lines name reach the disk before the lines.
            _ = try AtomicFile.write(bytes, to: path, mode: nil, creating: 0o666, replacingOnly: { $0 == nil })
            publishedSinceCompaction += 1
            publishedLeft = publishedLeft.map { $0 + 1 }
        }
        toPublish.removeAll()
        // A probe: a published log that cannot be looked at is written again whole.
        guard let ids = publishedIDs, (try? FileStamp.of(publishedLog))?.size == publishedLogSize else { return try republishLog() }
        guard !otherDevices.isEmpty else { return }
        let new = newlyPublishable(fresh, published: ids)
        guard !new.isEmpty else { return }
        var text: [UInt8] = []
        for event in new { text += event.line }
        try AtomicFile.append(text, to: publishedLog, mode: 0o666, flushing: true)
        publishedIDs = ids.union(new.map(\.id.sequence))
        publishedLogSize += Int64(text.count)
    }

    /// Writes what of this device's log others can need into `.folio/logs/` whole (the
    /// first time the folder is shared, after a compaction, or when the published log was
    /// lost or cut short), unless it holds that already.
    package func republishLog() throws(SystemError) {
        guard isShared, !readOnly else { return }
        try ensureFolder()
        var text: [UInt8] = []
        // Until another device keeps a history, the log is only this device's sign that it
        // does (an empty file): no one else would read its lines.
        let wanted = otherDevices.isEmpty ? [] : leavingOutSettled(publishable(logged[device] ?? []))
        for event in wanted { text += event.line }
        // A probe: a published log that cannot be read is written again.
        if (try? AtomicFile.contentsIfPresent(publishedLog)) != text {
            _ = try AtomicFile.write(text, to: publishedLog, mode: nil, creating: 0o666, replacingOnly: nil)
        }
        publishedIDs = Set(wanted.map(\.id.sequence))
        publishedLogSize = Int64(text.count)
    }

    /// What of a device's events (`own`, in its log's order) other devices can need, once
    /// there are others (until then a device publishes an empty log: the sign that it
    /// keeps a history, so that the next one to come publishes for it): all of them but
    /// the lone first sightings — a path this device has one event at, a version it found
    /// there rather than made from another, that no other of its events names. That is
    /// most of a log (a line per file, on a device that joins a folder); a device that
    /// logged nothing at a path is taken to hold what it first saw there (see
    /// ``VersionGraph/superseded(present:keepingHistory:)``), and once it logs a second
    /// event there (an edit, an arrival, a delete), the first goes out with it.
    package func publishable(_ own: [VersionEvent]) -> [VersionEvent] {
        var eventsAtPath: [String: Int] = [:]
        var named = Set<Int>()
        for event in own {
            eventsAtPath[event.path, default: 0] += 1
            for parent in event.parents where parent.device == event.id.device { named.insert(parent.sequence) }
        }
        return own.filter { !(eventsAtPath[$0.path] == 1 && isFirstSighting($0) && !named.contains($0.id.sequence)) }
    }

    /// `events` (this device's, to publish) less the settled ones: the only line this
    /// device keeps at its path (compaction left it alone there), naming the version every
    /// other device's lines there name — or none — with no conflict copy of the file
    /// logged and no event naming it as a parent. Every device takes a device with no
    /// line at a path to hold the oldest version logged there, which is that version: the
    /// line tells the others nothing. Once every device is past such a version, the
    /// published logs hold nothing at the path; the next line there (an edit, a clash)
    /// goes out with this one (``newlyPublishable(_:published:)``).
    package func leavingOutSettled(_ events: [VersionEvent]) -> [VersionEvent] {
        var linesAtPath: [String: Int] = [:]
        for event in logged[device] ?? [] { linesAtPath[event.path, default: 0] += 1 }
        var named = Set<VersionEvent.ID>()
        for event in graph.events.values { named.formUnion(event.parents) }
        return events.filter { event in
            guard linesAtPath[event.path] == 1, event.kind != .delete, let version = event.version, !named.contains(event.id),
                  graph.copyNames.rootOriginal(of: event.path) == nil, graph.copyPaths(of: event.path).isEmpty
            else { return true }
            return otherDevices.contains { other in graph.events(device: other, path: event.path).contains { $0.version != version } }
        }
    }

    /// Whether `event` is a version found at its path rather than made there from another
    /// or brought there: what a device that logged nothing else there is taken to hold. An
    /// arrival always goes out — once compaction dropped what it replaced, it is a lone
    /// line holding a newer version than the oldest one logged there, which the others
    /// would take this device to hold. A conflict copy's versions always go out: the rules
    /// for dropped versions read every device's.
    package func isFirstSighting(_ event: VersionEvent) -> Bool {
        event.kind == .edit && event.parents.isEmpty && graph.copyNames.original(of: event.path) == nil
    }

    /// Of this device's events, those `fresh` makes publishable and not yet published
    /// (`published`), in log order: each fresh one that is not a lone first sighting, with
    /// this device's earlier events at its path and its own parents not yet published.
    package func newlyPublishable(_ fresh: [VersionEvent], published: Set<Int>) -> [VersionEvent] {
        var wanted: [Int: VersionEvent] = [:]
        for event in fresh {
            let atPath = graph.events(device: device, path: event.path)
            guard atPath.count > 1 || !isFirstSighting(event) else { continue }
            for earlier in atPath where !published.contains(earlier.id.sequence) { wanted[earlier.id.sequence] = earlier }
            for parent in event.parents where parent.device == device && !published.contains(parent.sequence) {
                if let named = graph.events[parent] { wanted[parent.sequence] = named }
            }
        }
        return wanted.values.sorted { $0.id.sequence < $1.id.sequence }
    }

    /// Where an earlier Folio kept a version in the folder: `.folio/versions/HH/HASH`.
    package func earlierPath(_ hash: SHA256.Digest) -> RootedPath {
        let hex = hash.description
        return folder.appending("versions/" + hex.prefix(2) + "/" + hex)
    }

    /// `.folio/.gitignore`: git never tracks the shared history.
    package static let ignoreEverything = Array("# Folio's shared history of this folder: never committed.\n*\n".utf8)

    /// Makes `.folio/` with its `.gitignore` (so that git never tracks it) and `logs/`.
    package func ensureFolder() throws(SystemError) {
        // A probe: a logs folder not there (or not to be looked at) is made; making it reports a disk that refuses.
        guard (try? FileStamp.of(logsFolder))?.isDirectory != true else { return }
        try logsFolder.makeDirectories()
        let ignore = folder.appending(".gitignore")
        // A probe: an existing .gitignore is kept; the write (only where none is) reports a disk that refuses.
        if (try? FileStamp.of(ignore)) == nil {
            _ = try AtomicFile.write(Self.ignoreEverything, to: ignore, mode: nil, replacingOnly: { $0 == nil })
        }
    }

    /// Moves the history an earlier Folio kept in the folder (`.folio/logs/DEVICE.log`,
    /// `log`, and the versions its events name) to the state folder. In a folder no sync
    /// tool shares, what that Folio wrote there is then removed: its own log and versions,
    /// `.gitignore`, and the folders left empty (anything else stays).
    package func adoptEarlierHistory(_ log: [UInt8]) throws(SystemError) {
        let events = VersionEvent.parse(log, device: device)
        for hash in Set(events.compactMap(\.version)) {
            // Content that cannot be read is a version this device no longer has: as before, a fold that needs it keeps the copy and says why.
            if let bytes = try? FileReading.contents(of: earlierPath(hash)), SHA256.hash(bytes) == hash { try contentStore.store(bytes, hash: hash) }
        }
        try contentStore.flush(durably: true)
        _ = try AtomicFile.write(log, to: ownLog, mode: 0o600, replacingOnly: nil)
        guard !isShared else { return }
        // Best effort from here: what is left of the old .folio/ is only space in the folder.
        let versions = folder.appending("versions")
        for prefix in versions.namesIfListable() where prefix.count == 2 {
            for name in versions.appending(prefix).namesIfListable() where SHA256.Digest(hex: name) != nil { try? AtomicFile.remove(versions.appending(prefix + "/" + name)) }
            try? versions.appending(prefix).removeDirectory()
        }
        try? versions.removeDirectory()
        try? AtomicFile.remove(publishedLog)
        try? logsFolder.removeDirectory()
        let ignore = folder.appending(".gitignore")
        if (try? AtomicFile.contentsIfPresent(ignore)) == Self.ignoreEverything { try? AtomicFile.remove(ignore) }
        try? folder.removeDirectory()
    }
}
