import FolioFolder
import FolioShared
import FolioVersions
/// What one path needs, decided from its version (content hash and executable bit) in
/// the archive and in each replica (nil: absent). Pure: the decisions of docs/design.md, "Syncing two replicas".
package enum SyncStep: Sendable, Hashable {
    /// Both hold the same content: record it (when the archive does not already).
    case agree(SyncPath)
    /// Gone from both: forget it.
    case forget(SyncPath)
    /// Changed (or created) on one side only: copy it to the other.
    case copy(SyncPath, from: Replica)
    /// Deleted on one side, unchanged on the other: delete it there too.
    case delete(SyncPath, in: Replica)
    /// Deleted on one side and changed on the other: the edit wins, and is copied back.
    case restore(SyncPath, from: Replica)
    /// Changed differently on both sides (or created on both): merge.
    case merge(SyncPath)
    /// Renamed on one side with its content unchanged: rename it on `replica` too. When
    /// `replica` had edited it meanwhile, the edit follows the move (and is copied back).
    case move(from: SyncPath, to: SyncPath, on: Replica, edited: Bool)
    /// Renamed and edited on one side, known by its front-matter `id`: rename it on
    /// `replica` too, then settle the new path as any changed file (copy or merge).
    case moveByID(from: SyncPath, to: SyncPath, on: Replica)
}

package enum SyncPlan {
    /// The steps for every path any of the three know, in path order. A version is
    /// what makes two files the same for a sync: the content hash and the executable bit.
    /// Folders are never matched as renames.
    package static func steps<Version: Hashable>(
        archive: [SyncPath: Version], a: [SyncPath: Version], b: [SyncPath: Version],
        ids: (archive: [SyncPath: String], a: [SyncPath: String], b: [SyncPath: String]) = ([:], [:], [:])
    ) -> [SyncStep] {
        var paths = Set<SyncPath>(minimumCapacity: max(archive.count, a.count, b.count))
        paths.formUnion(archive.keys)
        paths.formUnion(a.keys)
        paths.formUnion(b.keys)
        var moves = self.moves(archive: archive, a: a, b: b)
        var moved = Set(moves.flatMap { step -> [SyncPath] in
            if case .move(let from, let to, _, _) = step { return [from, to] }
            return []
        })
        // Renamed and edited: the same front-matter id at a new path on one side.
        for (side, other, sideIDs, renamedOn) in [(a, b, ids.a, Replica.b), (b, a, ids.b, Replica.a)] {
            let gone = ids.archive.filter { path, _ in side[path] == nil && other[path] != nil && !moved.contains(path) }
            guard !gone.isEmpty else { continue }
            var created: [String: [SyncPath]] = [:]
            for (path, id) in sideIDs where archive[path] == nil && other[path] == nil && !moved.contains(path) { created[id, default: []].append(path) }
            for (path, id) in gone.sorted(by: { $0.key < $1.key }) {
                guard let targets = created[id], targets.count == 1 else { continue }
                created[id] = nil
                moves.append(.moveByID(from: path, to: targets[0], on: renamedOn))
                moved.formUnion([path, targets[0]])
            }
        }
        // Most paths need nothing: decide each, then sort only those that do.
        var steps: [(SyncPath, SyncStep)] = []
        for path in paths where !moved.contains(path) {
            if let step = step(path, base: archive[path], a: a[path], b: b[path]) { steps.append((path, step)) }
        }
        return moves + steps.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Renames: a path gone from one side whose exact version appeared there at one new
    /// path (that the other side does not have), while the other side still has it.
    static func moves<Version: Hashable>(archive: [SyncPath: Version], a: [SyncPath: Version], b: [SyncPath: Version]) -> [SyncStep] {
        var steps: [SyncStep] = []
        for (side, other, renamedOn) in [(a, b, Replica.b), (b, a, Replica.a)] {
            // What went first: usually nothing, and then the new files need no table.
            // Folders all look alike: never taken for a rename.
            let gone = archive.filter { side[$0.key] == nil && other[$0.key] != nil && !$0.key.isFolder }
            guard !gone.isEmpty else { continue }
            var created: [Version: [SyncPath]] = [:]
            for (path, version) in side where archive[path] == nil && other[path] == nil && !path.isFolder {
                created[version, default: []].append(path)
            }
            for (path, version) in gone.sorted(by: { $0.key < $1.key }) {
                guard let targets = created[version], targets.count == 1 else { continue }
                created[version] = nil
                steps.append(.move(from: path, to: targets[0], on: renamedOn, edited: other[path] != version))
            }
        }
        return steps
    }

    /// The step for one path, or nil when nothing is to be done.
    static func step<Version: Hashable>(_ path: SyncPath, base: Version?, a: Version?, b: Version?) -> SyncStep? {
        if a == b {
            if a == nil { return base == nil ? nil : .forget(path) }
            return base == a ? nil : .agree(path)
        }
        if a == base { return b == nil ? .delete(path, in: .a) : .copy(path, from: .b) }
        if b == base { return a == nil ? .delete(path, in: .b) : .copy(path, from: .a) }
        // Changed on both sides, differently.
        if a == nil { return .restore(path, from: .b) }
        if b == nil { return .restore(path, from: .a) }
        return .merge(path)
    }
}
