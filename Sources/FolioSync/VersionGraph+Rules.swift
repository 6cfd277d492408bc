import FolioFolder

/// What the graph proves: which version a sync tool dropped, and which versions no fold
/// can need any more.
extension VersionGraph {
    /// The versions of `file` that a sync tool provably dropped: an edit (never a fold,
    /// an arrival or git's write) that some device saw held by a conflict copy of
    /// `file` which then held other bytes — overwritten, not removed — from which no
    /// version was made, that no file or copy holds now (`present`: the contents of
    /// `file` and its copies) and that nobody removed. Oldest first.
    package mutating func droppedVersions(of file: String, present: Set<SHA256.Digest>) -> [VersionEvent.ID] {
        var dropped: [VersionEvent.ID] = []
        let copyPaths = paths.filter { ConflictCopies.rootOriginal(of: $0) == file }
        for device in devices {
            for path in copyPaths.sorted() {
                let seen = events(device: device, path: path)
                for (index, event) in seen.enumerated() where index + 1 < seen.count {
                    let next = seen[index + 1]
                    guard next.kind != .delete, next.version != event.version, let content = event.version,
                          !present.contains(content), let version = node(event.id), let made = events[version],
                          made.kind == .edit, made.madeVersion, !hasChildren(version), !dropped.contains(version),
                          !wasRemoved(version, near: file)
                    else { continue }
                    dropped.append(version)
                }
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
            var notLowest = Set<VersionEvent.ID>()
            for id in common { for parent in parents(of: id) where common.contains(parent) { notLowest.insert(parent) } }
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
