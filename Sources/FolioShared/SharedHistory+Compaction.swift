import FolioSystem
import FolioVersions

/// Dropping what no fold can need any more, so that the history stays near one version
/// per file rather than growing with every edit.
extension SharedHistory {
    /// Drops what no fold can need any more (``VersionGraph/superseded(present:)``):
    /// this device's superseded events from its log (rewritten, atomically, and published
    /// again), every device's from the graph held in memory, the contents no kept event
    /// names from the pack (``BaseStore/compact(keeping:)``, only when some are to go),
    /// and from `.folio/versions/` the contents no other device can still need (no kept
    /// event names them, or every device that logged their path holds them now).
    /// `present`: path → content of what the files hold. Returns how many published
    /// contents were removed.
    @discardableResult
    package func compact(present: [String: SHA256.Digest]) throws(SystemError) -> Int {
        try flush()
        othersLoggedSinceCompaction = false
        othersCompactedSinceCompaction = false
        let superseded = graph.superseded(present: present, keepingHistory: otherDevices.union([device]))
        // Nothing to drop (a first record): the log, the graph and the pack stay as they are.
        guard !superseded.isEmpty else {
            publishedSinceCompaction = 0
            guard !readOnly else { return 0 }
            // Lines may have settled since (another device moved past what they name, or compacted).
            try republishLog()
            return prunePublished(needed: neededByOthers())
        }
        let own = logged[device] ?? []
        let kept = own.filter { !superseded.contains($0.id) }
        if kept.count != own.count && !readOnly {
            var text: [UInt8] = []
            for event in kept { text += event.ownLine }
            _ = try AtomicFile.write(text, to: ownLog, mode: 0o600, replacingOnly: nil)
        }
        for (name, events) in logged { logged[name] = events.filter { !superseded.contains($0.id) } }
        // Published from what is kept: the lines just dropped go from `.folio/` too, and
        // those that settled.
        if !readOnly { try republishLog() }
        rebuildGraph()
        guard !readOnly else { return 0 }
        var named = Set(present.values)
        for event in graph.events.values { if let version = event.version { named.insert(version) } }
        if !contentStore.hashes().isSubset(of: named) { try contentStore.compact(keeping: named) }
        publishedSinceCompaction = 0
        return prunePublished(needed: neededByOthers())
    }

    /// The contents another device may still need as a base: those a kept event names,
    /// at a path where not every device keeping a history holds that content now (one
    /// that logged nothing there holding what it first saw).
    package func neededByOthers() -> Set<SHA256.Digest> {
        var heldByAll: [String: SHA256.Digest] = [:]
        let devices = Set(graph.devices).union(otherDevices)
        for path in graph.paths {
            // A device that logged nothing at the path holds what it first saw there (see ``publishable(_:)``).
            let first = graph.oldestVersion(at: path).flatMap { graph.events[$0]?.version }
            let latest = devices.map { graph.latest(device: $0, path: path).map(\.version) ?? first }
            if let first = latest.first, let first, latest.allSatisfy({ $0 == first }) { heldByAll[path] = first }
        }
        var needed = Set<SHA256.Digest>()
        for event in graph.events.values {
            if let version = event.version, heldByAll[event.path] != version { needed.insert(version) }
        }
        return needed
    }

    /// Removes from this device's `.folio/versions/DEVICE/` what is not `needed` (what
    /// other devices published is theirs to prune: their log lines naming it may not have
    /// arrived yet); returns how many went.
    package func prunePublished(needed: Set<SHA256.Digest>) -> Int {
        let mine = folder.appending("versions/" + device)
        var removed = 0, left = 0
        for name in mine.namesIfListable() {
            guard let hash = SHA256.Digest(hex: name), !needed.contains(hash) else { left += 1; continue }
            // Best effort: content left behind is only space, removed at the next compaction.
            if (try? AtomicFile.remove(mine.appending(name))) != nil { removed += 1 } else { left += 1 }
        }
        publishedLeft = left
        return removed
    }
}
