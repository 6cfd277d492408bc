import FolioFolder
import FolioSystem
import FolioVersions

/// The versions of a shared folder's files as every device's log tells them: a graph
/// whose nodes are the versions devices made (edits, folds, restores) and whose edges
/// go to the versions each was made from. Arrivals, git's writes and first sightings
/// are not nodes of their own: each stands for the version made elsewhere with the
/// same content (the newest made by then), or, when no device says it made it, for the
/// first sighting of that content (so devices that first saw one file at once share one
/// root). Pure: built from events, the same on every device that read the same logs.
///
/// Nodes are events, not contents: a file edited back to bytes it held before (a todo
/// ticked, then unticked) is a new version descending from the ticked one, so the
/// untick is a change a merge keeps.
package struct VersionGraph: Sendable {
    /// Every event, by identity.
    package private(set) var events: [VersionEvent.ID: VersionEvent] = [:]
    /// The events that made each content, oldest first.
    private(set) var made: [SHA256.Digest: [VersionEvent.ID]] = [:]
    /// The folds that gave each content, oldest first: one version, however many devices
    /// folded it (a fold's bytes depend only on its base, file and copy).
    private var folds: [SHA256.Digest: [VersionEvent.ID]] = [:]
    /// The sightings of each content that no made version stands behind, oldest first.
    private(set) var sightings: [SHA256.Digest: [VersionEvent.ID]] = [:]
    /// Each device's events at each path, in log order.
    private var byDevicePath: [String: [String: [VersionEvent.ID]]] = [:]
    /// The conflict copies any device logged, by the file they are copies of (a copy of a
    /// copy under the first file): the rules ask for a file's copies once per file, and a
    /// walk over every path each time made a pass over many files quadratic.
    private(set) var copiesByFile: [String: Set<String>] = [:]
    /// Derived: the made versions some other version was made from.
    private var withChildren: Set<VersionEvent.ID> = []
    private var derivedIsCurrent = true

    /// How far another device's clock may be ahead: an arrival stands for a version made
    /// no later than this after it was seen.
    package static let clockSlack: Int64 = 120 * 1_000_000_000

    /// A graph of `events`.
    package init(_ events: [VersionEvent] = [], copyNames: ConflictCopyNames = .builtIn) {
        self.copyNames = copyNames
        for event in events { insert(event) }
    }

    /// How the folder names conflict copies (its `folio.yaml`'s patterns included).
    package let copyNames: ConflictCopyNames

    /// Adds an event (one already held is ignored).
    package mutating func insert(_ event: VersionEvent) {
        guard events[event.id] == nil else { return }
        events[event.id] = event
        if let version = event.version {
            if event.madeVersion { made[version, default: []].append(event.id) } else { sightings[version, default: []].append(event.id) }
            if event.kind == .fold { folds[version, default: []].append(event.id) }
        }
        // In the order of the device's log (its numbers): a line published late, a first
        // sighting another line came to name, goes before the lines after it.
        Self.insertInOrder(event.id, into: &byDevicePath[event.id.device, default: [:]][event.path, default: []])
        if let file = copyNames.rootOriginal(of: event.path) { copiesByFile[file, default: []].insert(event.path) }
        derivedIsCurrent = false
    }

    private static func insertInOrder(_ id: VersionEvent.ID, into ids: inout [VersionEvent.ID]) {
        var at = ids.endIndex
        while at > ids.startIndex && ids[at - 1].sequence > id.sequence { at -= 1 }
        ids.insert(id, at: at)
    }

    /// The devices that logged events.
    package var devices: [String] { byDevicePath.keys.sorted() }

    /// `device`'s newest event at `path`, or nil.
    package func latest(device: String, path: String) -> VersionEvent? {
        byDevicePath[device]?[path]?.last.flatMap { events[$0] }
    }

    /// `device`'s events at `path`, in its log's order.
    package func events(device: String, path: String) -> [VersionEvent] {
        (byDevicePath[device]?[path] ?? []).compactMap { events[$0] }
    }

    /// The paths any device logged.
    package var paths: Set<String> {
        var all = Set<String>()
        for table in byDevicePath.values { all.formUnion(table.keys) }
        return all
    }

    /// The version `id` stands for: itself when it made one (a fold: the first fold that
    /// gave those bytes, as every device folding the same copy gives them; an edit: the
    /// first edit that made those bytes from the same versions); for a sighting, the
    /// version made elsewhere with that content (the newest made before it was seen), else
    /// the first sighting of that content; nil for a delete or an unknown event.
    package func node(_ id: VersionEvent.ID) -> VersionEvent.ID? {
        guard let event = events[id], let version = event.version else { return nil }
        if event.madeVersion { return canonical(id) }
        if let makers = made[version], !makers.isEmpty {
            // Made before it was seen, the newest of them: a version made later with the same
            // bytes (an untick back to what a tick replaced) is a later version, and may itself
            // descend from what this sighting stands for. Only when none was made before, one
            // made by a device whose clock runs ahead (the first made after it, within the slack).
            let before = makers.filter { events[$0]!.time <= event.time }
            if let newest = Self.newest(before, in: events) { return canonical(newest) }
            let ahead = makers.filter { events[$0]!.time <= event.time + Self.clockSlack }
            return (ahead.isEmpty ? makers : ahead).min { Self.older(events[$0]!, than: events[$1]!) }.map(canonical)
        }
        return sightings[version]?.min { Self.older(events[$0]!, than: events[$1]!) }
    }

    /// A made version as one: a fold as the first fold that gave its bytes; an edit as the
    /// first edit that made its bytes from the same versions (the same change, made twice:
    /// a device that recorded a version the sync tool brought as its own edit, before the
    /// maker's log line arrived, made it from the version both held).
    private func canonical(_ id: VersionEvent.ID) -> VersionEvent.ID {
        guard let event = events[id], let version = event.version else { return id }
        let older = { (a: VersionEvent.ID, b: VersionEvent.ID) in Self.older(self.events[a]!, than: self.events[b]!) }
        switch event.kind {
        case .fold:
            return folds[version]?.min(by: older) ?? id
        case .edit where !event.parents.isEmpty && (made[version]?.count ?? 0) > 1:
            let from = Set(event.parents.compactMap { node($0) })
            let twins = made[version]!.filter { other in
                guard let made = events[other], made.kind == .edit, other != id else { return false }
                return Set(made.parents.compactMap { node($0) }) == from
            }
            return (twins + [id]).min(by: older) ?? id
        default:
            return id
        }
    }

    /// The version a file or copy holding `content` stands for, with nothing else known:
    /// a made version of that content no other was made from (a conflict copy is such a
    /// head), the newest of them; else the newest made; else its first sighting.
    package mutating func node(holding content: SHA256.Digest) -> VersionEvent.ID? {
        updateDerived()
        if let makers = made[content], !makers.isEmpty {
            let heads = makers.filter { !withChildren.contains(canonical($0)) }
            return Self.newest(heads.isEmpty ? makers : heads, in: events).map(canonical)
        }
        return sightings[content]?.min { Self.older(events[$0]!, than: events[$1]!) }
    }

    /// The versions `id` (a version, see ``node(_:)``) was made from.
    package func parents(of id: VersionEvent.ID) -> [VersionEvent.ID] {
        guard let event = events[id], event.madeVersion else { return [] }
        return event.parents.compactMap { node($0) }.filter { $0 != id }
    }

    /// `id` and every version it descends from.
    package func ancestors(of id: VersionEvent.ID) -> Set<VersionEvent.ID> {
        var seen: Set<VersionEvent.ID> = [id]
        var stack = [id]
        while let next = stack.popLast() {
            for parent in parents(of: next) where seen.insert(parent).inserted { stack.append(parent) }
        }
        return seen
    }

    /// The lowest common ancestor of two versions: of the versions both descend from,
    /// one no other of them descends from; when there are several (criss-cross
    /// histories), the newest (then the greatest identity), so every device picks the
    /// same. Nil when they share no ancestor.
    package func lowestCommonAncestor(_ a: VersionEvent.ID, _ b: VersionEvent.ID) -> VersionEvent.ID? {
        let common = ancestors(of: a).intersection(ancestors(of: b))
        guard !common.isEmpty else { return nil }
        return Self.newest(Array(lowest(of: common)), in: events)
    }

    /// Of `common` — versions some others all descend from, so closed under ancestry —
    /// those no other member was made from. (A member that is a parent of another is not
    /// lowest; a strict ancestor of a member is a member too, so parents suffice.)
    package func lowest(of common: Set<VersionEvent.ID>) -> Set<VersionEvent.ID> {
        var notLowest = Set<VersionEvent.ID>()
        for id in common { for parent in parents(of: id) where common.contains(parent) { notLowest.insert(parent) } }
        return common.subtracting(notLowest)
    }

    /// Whether `descendant` is `ancestor` or was made from it, however indirectly.
    package func descends(_ descendant: VersionEvent.ID, from ancestor: VersionEvent.ID) -> Bool {
        ancestors(of: descendant).contains(ancestor)
    }

    /// Whether some version was made from `id`.
    package mutating func hasChildren(_ id: VersionEvent.ID) -> Bool {
        updateDerived()
        return withChildren.contains(id)
    }

    /// The made versions of `content`.
    package func makers(of content: SHA256.Digest) -> [VersionEvent.ID] { made[content] ?? [] }

    private mutating func updateDerived() {
        guard !derivedIsCurrent else { return }
        withChildren = []
        for ids in made.values {
            for id in ids { for parent in parents(of: id) { withChildren.insert(parent) } }
        }
        derivedIsCurrent = true
    }

    #if DEBUG
    /// Every indexed id is an event, each event is indexed once at its device and path in
    /// log order, by its content as made or seen, and each copy path under its file.
    package func _checkInvariants() {
        var indexed = 0
        for (device, table) in byDevicePath {
            for (path, ids) in table {
                precondition(zip(ids, ids.dropFirst()).allSatisfy { $0.sequence < $1.sequence }, "\(device)'s events at \(path) out of log order")
                for id in ids { precondition(events[id].map { $0.id.device == device && $0.path == path } == true, "\(id) indexed at the wrong place") }
                indexed += ids.count
            }
        }
        precondition(indexed == events.count, "\(events.count) events, \(indexed) indexed by device and path")
        for (content, ids) in made { precondition(ids.allSatisfy { events[$0].map { $0.version == content && $0.madeVersion } == true }, "a maker of \(content) made something else") }
        for (content, ids) in sightings { precondition(ids.allSatisfy { events[$0].map { $0.version == content && !$0.madeVersion } == true }, "a sighting of \(content) saw something else") }
        var copies: [String: Set<String>] = [:]
        for path in paths { if let file = copyNames.rootOriginal(of: path) { copies[file, default: []].insert(path) } }
        precondition(copies == copiesByFile, "the copies by file are not the copies logged")
    }
    #else
    package func _checkInvariants() {}
    #endif

    package static func older(_ a: VersionEvent, than b: VersionEvent) -> Bool { (a.time, a.id) < (b.time, b.id) }

    package static func newest(_ ids: [VersionEvent.ID], in events: [VersionEvent.ID: VersionEvent]) -> VersionEvent.ID? {
        ids.max { older(events[$0]!, than: events[$1]!) }
    }
}
