import FolioFolder

/// What the graph proves: which version a sync tool dropped, and which versions no fold
/// can need any more.
extension VersionGraph {
    /// The versions of `file` that a sync tool provably dropped, among those `device`
    /// made (only the device that made a version writes it back, so it is written once):
    /// an edit (never a fold, an arrival or git's write) from which no version was made,
    /// that no file or copy holds now (`present`: the contents of `file` and its copies),
    /// that nobody removed, and that was lost in a clash — its device saw the file
    /// replaced by a version not made from it (an arrival, at least `settled` ns before
    /// `now`, so that a copy holding it has had time to arrive), or saw it held by a
    /// conflict copy that then held other bytes (overwritten, not removed: Syncthing 1.19
    /// gives two losers of one second the same copy name). Oldest first.
    package mutating func droppedVersions(of file: String, madeBy device: String, present: Set<SHA256.Digest>, now: Int64, settled: Int64) -> [VersionEvent.ID] {
        var dropped: [VersionEvent.ID] = []
        func consider(_ version: VersionEvent.ID) {
            guard let made = events[version], made.id.device == device, made.kind == .edit, made.madeVersion,
                  let content = made.version, !present.contains(content), !hasChildren(version), !dropped.contains(version),
                  !wasRemoved(version, near: file)
            else { return }
            dropped.append(version)
        }
        // Replaced by an arrival on its own device.
        let own = events(device: device, path: file)
        for (index, event) in own.enumerated() where index + 1 < own.count && event.madeVersion && event.kind == .edit {
            let next = own[index + 1]
            guard next.kind == .arrival, next.version != event.version, now - next.time >= settled,
                  !(node(next.id).map { descends($0, from: event.id) } ?? false)
            else { continue }
            consider(event.id)
        }
        // Held by a copy that was then overwritten.
        for path in paths.filter({ ConflictCopies.rootOriginal(of: $0) == file }).sorted() {
            let seen = events(device: device, path: path)
            for (index, event) in seen.enumerated() where index + 1 < seen.count {
                let next = seen[index + 1]
                guard next.kind != .delete, next.version != event.version, let version = node(event.id) else { continue }
                consider(version)
            }
        }
        return dropped.sorted { Self.older(events[$0]!, than: events[$1]!) }
    }

    /// Whether some device removed a path (`file` or one of its copies) while it held `version`.
    func wasRemoved(_ version: VersionEvent.ID, near file: String) -> Bool {
        events.values.contains { event in
            event.kind == .delete && (event.path == file || ConflictCopies.rootOriginal(of: event.path) == file)
                && event.parents.contains { node($0) == version }
        }
    }

    /// The events no fold can need any more. For each file (with its conflict copies),
    /// the heads are what each device last held there and what is held now (`present`:
    /// path → content); every version the heads all descend from, but for the lowest of
    /// them, is superseded, and so are the sightings standing for one and each device's
    /// older deletes. A device's last event at a path is never superseded.
    package mutating func superseded(present: [String: SHA256.Digest]) -> Set<VersionEvent.ID> {
        var groups: [String: Set<String>] = [:]
        for path in paths.union(present.keys) { groups[ConflictCopies.rootOriginal(of: path) ?? path, default: []].insert(path) }
        var result = Set<VersionEvent.ID>()
        for (_, members) in groups {
            var heads = Set<VersionEvent.ID>()
            var lastEvents = Set<VersionEvent.ID>()
            for device in devices {
                for path in members {
                    guard let last = latest(device: device, path: path) else { continue }
                    lastEvents.insert(last.id)
                    if last.kind == .delete {
                        for parent in last.parents { if let head = node(parent) { heads.insert(head) } }
                    } else if let head = node(last.id) {
                        heads.insert(head)
                    }
                }
            }
            for path in members { if let content = present[path], let head = node(holding: content) { heads.insert(head) } }
            guard let first = heads.first else { continue }
            var common = ancestors(of: first)
            for head in heads.dropFirst() { common.formIntersection(ancestors(of: head)) }
            let notLowest = common.subtracting(lowest(of: common))
            for device in devices {
                for path in members {
                    for event in events(device: device, path: path) where !lastEvents.contains(event.id) {
                        if event.kind == .delete || node(event.id).map(notLowest.contains) == true { result.insert(event.id) }
                    }
                }
            }
        }
        return result
    }
}
