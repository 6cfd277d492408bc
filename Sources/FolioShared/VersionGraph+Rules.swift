import FolioFolder
import FolioSystem
import FolioVersions

/// What the graph proves: which version a sync tool dropped, and which versions no fold
/// can need any more.
extension VersionGraph {
    /// The versions of `file` that a sync tool provably dropped, among those `device`
    /// made (only the device that made a version writes it back, so it is written once):
    /// an edit (never a fold, an arrival or git's write) from which no version was made,
    /// that no file or copy holds now (`present`: the contents of `file` and its copies)
    /// nor, by any device's log, still holds, that nobody removed, and that was lost in a
    /// clash — some device saw a conflict copy hold it and then other bytes (overwritten,
    /// not removed: Syncthing 1.19 gives two losers of one second the same copy name), or
    /// its own device saw the file replaced by a version not made from it (an arrival, at
    /// least `settled` ns before `now`) while a conflict copy of the file appeared there
    /// (first seen within ``lossWindow`` of that arrival) holding other bytes: the copy its
    /// own sync tool moved it to, overwritten before it was looked at. An arrival with no
    /// such copy is a clash settled elsewhere, whose copy of the version is still on its
    /// way. Oldest first.
    package mutating func droppedVersions(of file: String, madeBy device: String, present: Set<SHA256.Digest>, now: Int64, settled: Int64) -> [VersionEvent.ID] {
        let copies = copyPaths(of: file)
        // What each device last saw in each copy: a copy still holding a version on some device is on its way here.
        let held = Set(devices.flatMap { device in copies.compactMap { latest(device: device, path: $0)?.version } })
        var dropped: [VersionEvent.ID] = []
        func consider(_ candidate: VersionEvent.ID) {
            // As the version it is: an edit made twice (see node(_:)) is its first maker's, written back by that device only.
            guard let version = node(candidate), let made = events[version], made.id.device == device, made.kind == .edit, made.madeVersion,
                  let content = made.version, !present.contains(content), !held.contains(content), !hasChildren(version),
                  !dropped.contains(version), !wasRemoved(version, near: file)
            else { return }
            dropped.append(version)
        }
        // Replaced by an arrival on its own device, with its copy there overwritten unseen.
        let own = events(device: device, path: file)
        for (index, event) in own.enumerated() where index + 1 < own.count && event.madeVersion && event.kind == .edit {
            let next = own[index + 1]
            guard next.kind == .arrival, next.version != event.version, now - next.time >= settled,
                  aCopy(among: copies, firstSeenBy: device, near: next.time, holding: { $0 != event.version }),
                  !(node(next.id).map { descends($0, from: event.id) } ?? false)
            else { continue }
            consider(event.id)
        }
        // Held by a copy that was then overwritten, as any device saw it.
        for path in copies {
            for seer in devices {
                let seen = events(device: seer, path: path)
                for (index, event) in seen.enumerated() where index + 1 < seen.count {
                    let next = seen[index + 1]
                    guard next.kind != .delete, next.version != event.version, let version = node(event.id) else { continue }
                    consider(version)
                }
            }
        }
        return dropped.sorted { Self.older(events[$0]!, than: events[$1]!) }
    }

    /// Whether some device held `version` in its file and lost it in a clash there: its
    /// file replaced by an arrival of other bytes while a conflict copy of the file holding
    /// `version`'s bytes first appeared there (within ``lossWindow``). Such a copy is an
    /// old version a device never moved past (its folder paused through the others'
    /// edits), not a newer version with old bytes whose log line has not arrived.
    package func lostInAClash(_ version: VersionEvent.ID) -> Bool {
        guard let content = events[version]?.version else { return false }
        // Every event holding the content made it or saw it.
        let holders = (made[content] ?? []) + (sightings[content] ?? [])
        for holder in holders.compactMap({ events[$0] }) where copyNames.rootOriginal(of: holder.path) == nil && node(holder.id) == version {
            let seen = events(device: holder.id.device, path: holder.path)
            guard let index = seen.firstIndex(where: { $0.id == holder.id }), index + 1 < seen.count, case let next = seen[index + 1],
                  next.kind == .arrival, next.version != content
            else { continue }
            if aCopy(among: copyPaths(of: holder.path), firstSeenBy: holder.id.device, near: next.time, holding: { $0 == content }) { return true }
        }
        return false
    }

    /// The version the oldest event logged at `path` (by any device) stands for: what a
    /// device that logged nothing there is taken to hold.
    package func oldestVersion(at path: String) -> VersionEvent.ID? {
        let all = devices.flatMap { events(device: $0, path: path) }.filter { $0.version != nil }
        return all.min { Self.older($0, than: $1) }.flatMap { node($0.id) }
    }

    /// The conflict copies of `file` some device logged, by path.
    package func copyPaths(of file: String) -> [String] {
        (copiesByFile[file] ?? []).sorted()
    }

    /// Whether one of `copies` first appeared on `device` within ``lossWindow`` of `time`
    /// (its file replaced there then), holding bytes that pass `test`: the copy that
    /// device's own sync tool made of the version it lost there.
    package func aCopy(among copies: [String], firstSeenBy device: String, near time: Int64, holding test: (SHA256.Digest) -> Bool) -> Bool {
        copies.contains { copy in
            events(device: device, path: copy).first.map { first in first.version.map(test) == true && abs(first.time - time) <= Self.lossWindow } == true
        }
    }

    /// How far apart (ns) a device's file being replaced and a conflict copy of it first
    /// seen there may be for the copy to be the one its own sync tool made of the version
    /// replaced: Syncthing moves the version to the copy and puts the winner in place at
    /// once, and each is recorded once left alone for the quiet period.
    package static let lossWindow: Int64 = 5 * 1_000_000_000

    /// Whether some device removed a path (`file` or one of its copies) while it held `version`.
    package func wasRemoved(_ version: VersionEvent.ID, near file: String) -> Bool {
        let paths = [file] + copyPaths(of: file)
        return devices.contains { device in
            paths.contains { path in
                events(device: device, path: path).contains { event in event.kind == .delete && event.parents.contains { node($0) == version } }
            }
        }
    }

    /// The events no fold can need any more. For each file (with its conflict copies),
    /// the heads are what each device last held there, what is held now (`present`:
    /// path → content) and every made version no other was made from (one lost in a
    /// clash is written back and folded later); every version the heads all descend from, but for the lowest of
    /// them, is superseded, and so are the sightings standing for one and each device's
    /// older deletes. A device's last event at a path is never superseded. A device of
    /// `keepingHistory` that logged nothing at a file or its copies (its first sighting
    /// there not published, see ``SharedHistory/publishable(_:)``) holds what it first saw:
    /// the oldest version logged there is one of the heads.
    package mutating func superseded(present: [String: SHA256.Digest], keepingHistory known: Set<String> = []) -> Set<VersionEvent.ID> {
        var groups: [String: Set<String>] = [:]
        for path in paths.union(present.keys) { groups[copyNames.rootOriginal(of: path) ?? path, default: []].insert(path) }
        var result = Set<VersionEvent.ID>()
        for (file, members) in groups {
            var heads = Set<VersionEvent.ID>()
            if known.contains(where: { device in members.allSatisfy { latest(device: device, path: $0) == nil } }), let first = oldestVersion(at: file) {
                heads.insert(first)
            }
            var lastEvents = Set<VersionEvent.ID>()
            for device in devices {
                for path in members {
                    let seen = events(device: device, path: path)
                    guard let last = seen.last else { continue }
                    lastEvents.insert(last.id)
                    if last.kind == .delete {
                        for parent in last.parents { if let head = node(parent) { heads.insert(head) } }
                    } else if let head = node(last.id) {
                        heads.insert(head)
                    }
                    // A version no other was made from, though no device holds it now (an edit
                    // lost in a clash, to be proved dropped and written back, then folded): its
                    // past is the base that fold needs.
                    for event in seen where event.madeVersion && node(event.id) == event.id && !hasChildren(event.id) { heads.insert(event.id) }
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
