import FolioFolder
import FolioShared
import FolioVersions
/// What a sync did, kept as typed events (``record(_:)`` takes each as it happens):
/// ``events`` lists them, `folio` renders them as text or JSON, and the older views
/// (``copied``, ``skipped``, …) spell them as paths and `A:PATH` keys.
public struct SyncReport: Sendable, Equatable {
    /// How the replicas name conflict copies (to say which file a fold went into).
    package var copyNames = ConflictCopyNames.builtIn
    /// Files and folders copied, each in the replica written.
    public private(set) var copies: [ReplicaPath] = []
    /// Files and folders deleted (moved into the trash), each in the replica it left.
    public private(set) var deletions: [ReplicaPath] = []
    /// Paths both sides changed, merged into one version.
    public private(set) var merges: [SyncPath] = []
    /// Other tools' conflict copies merged back into their files and removed.
    public private(set) var folds: [SyncPath] = []
    /// Other tools' conflict copies that could not be folded, and why: a real clash
    /// (`time (20m | 25m)`), no base. They stay, and are synced as files.
    public private(set) var copiesKept: [ReplicaPath: String] = [:]
    /// Folio's own temporary files left by a killed process, removed.
    public private(set) var temporariesRemoved: [ReplicaPath] = []
    /// Renames carried across.
    public private(set) var moves: [Move] = []
    /// Paths with a real conflict, and the conflict copy saved beside each (nil with markers).
    public private(set) var conflicts: [SyncPath: SyncPath?] = [:]
    /// Paths that changed while the sync ran: left for the next sync.
    public private(set) var changedDuringSync: [SyncPath] = []
    /// Paths left alone, and why.
    public private(set) var skips: [Skip: String] = [:]
    /// The paths left alone by design (links, devices): not problems.
    public private(set) var passedOverPaths: Set<ReplicaPath> = []
    /// What of its own state the sync could not write (a merge base, a flush): the files
    /// may be in step, but the disk refused.
    public private(set) var stateProblem: String?
    /// Names renamed to NFC in their replica, so that both replicas spell them alike.
    public private(set) var normalizations: [ReplicaPath] = []
    /// Paths one replica's own rules would sync that the other replica's `.folioignore`
    /// holds back (A's file, which B's rules ignore; folders end in `/`).
    public private(set) var heldBackPaths: [ReplicaPath] = []
    /// Files that hold conflict markers (`<<<<<<<` … `>>>>>>>`): a merge not finished,
    /// synced as they are but not in step until someone edits the markers away (one
    /// in ``conflicts``, marked by this sync, is not listed again).
    public internal(set) var withConflictMarkers: [SyncPath] = []
    /// How many files each replica holds now.
    public var files = 0
    /// How many files were read and hashed (the rest were known by their stamps).
    public var hashed = 0

    /// A rename carried across: `from` renamed to `to` in `replica`.
    public struct Move: Sendable, Hashable {
        /// The old path.
        public var from: SyncPath
        /// The new path.
        public var to: SyncPath
        /// The replica renamed in.
        public var replica: Replica
    }

    /// What a skip is about: a path in one replica, or in both (`replica` nil).
    public struct Skip: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The replica, or nil for both.
        public var replica: Replica?
        /// The path.
        public var path: SyncPath
        /// `A:PATH`, or `PATH` for both.
        public var description: String { replica.map { "\($0.rawValue):\(path)" } ?? path.key }
        /// In the order of their spelling.
        public static func < (left: Skip, right: Skip) -> Bool { left.description < right.description }
    }

    /// An empty report.
    public init() {}

    /// An empty report of replicas that name conflict copies as `copyNames` says.
    package init(copyNames: ConflictCopyNames) { self.copyNames = copyNames }

    /// Takes one event: lists grow; a conflict, a kept copy or a skip of a path already
    /// reported replaces the earlier word on it.
    mutating func record(_ event: SyncEvent) {
        switch event {
        case .normalized(let path): normalizations.append(path)
        case .copied(let path): copies.append(path)
        case .deleted(let path): deletions.append(path)
        case .moved(let from, let to, let replica): moves.append(Move(from: from, to: to, replica: replica))
        case .folded(let copy): folds.append(copy)
        case .keptCopy(let copy, let reason): copiesKept[copy] = reason
        case .merged(let path): merges.append(path)
        case .conflict(let path, let copy): conflicts[path] = .some(copy)
        case .changedDuringSync(let path): changedDuringSync.append(path)
        case .removedTemporary(let path): temporariesRemoved.append(path)
        case .heldBack(let path): heldBackPaths.append(path)
        case .skipped(let replica, let path, let reason, let byDesign):
            skips[Skip(replica: replica, path: path)] = reason
            if byDesign, let replica { passedOverPaths.insert(ReplicaPath(replica, path)) }
        case .stateNotWritten(let reason): stateProblem = reason
        }
    }

    /// A path in `replica` left alone, and why.
    mutating func record(skipped replica: Replica, _ path: SyncPath, _ reason: String) {
        record(.skipped(replica: replica, path: path, reason: reason, byDesign: false))
    }

    /// Part of the state that could not be written, and why.
    mutating func record(stateNotWritten reason: String) { record(.stateNotWritten(reason: reason)) }

    /// Copies and deletions in path order, as a sync lists them.
    mutating func sortCopiesAndDeletions() {
        copies.sort { $0.path < $1.path }
        deletions.sort { $0.path < $1.path }
    }

    /// A deletion no longer to report (a folded copy's: it is reported as folded).
    mutating func forgetDeletion(of path: SyncPath) { deletions.removeAll { $0.path == path } }

    /// Held-back paths in the order of their `A:PATH` spelling.
    mutating func sortHeldBack() { heldBackPaths.sort() }

    /// Whether the sync could not write part of its state (`folio sync` exits 3).
    public var couldNotWriteState: Bool { stateProblem != nil }

    /// Whether the replicas now hold the same (conflicts aside).
    public var replicasAgree: Bool { changedDuringSync.isEmpty }

    /// Whether the sync found anything for the user to do: a conflict, a copy it could
    /// not fold, a file holding conflict markers, a file that changed while it ran, or a path it could not sync (a name
    /// the other side cannot hold or that is not UTF-8, a file it could not read or
    /// write) — `folio sync` exits 1 for these. Links and devices, left alone by design,
    /// are not.
    public var foundProblems: Bool {
        !conflicts.isEmpty || !copiesKept.isEmpty || !replicasAgree || stateProblem != nil || !withConflictMarkers.isEmpty
            || skips.keys.contains { skip in skip.replica.map { !passedOverPaths.contains(ReplicaPath($0, skip.path)) } ?? true }
    }

    /// Every event, in the order a person reads them: renames to NFC, copies, deletions,
    /// moves, folds, kept copies, merges, conflicts, changes during the sync, temporaries
    /// removed, paths held back, skips, and the state.
    public var events: [SyncEvent] {
        var events: [SyncEvent] = normalizations.map(SyncEvent.normalized)
        events += copies.map(SyncEvent.copied)
        events += deletions.map(SyncEvent.deleted)
        events += moves.map { .moved(from: $0.from, to: $0.to, on: $0.replica) }
        events += folds.map { .folded(copy: $0) }
        events += copiesKept.sorted { $0.key < $1.key }.map { .keptCopy($0.key, reason: $0.value) }
        events += merges.filter { conflicts[$0] == nil }.map { .merged(path: $0) }
        events += conflicts.sorted { $0.key < $1.key }.map { .conflict(path: $0.key, copy: $0.value) }
        events += changedDuringSync.map { .changedDuringSync(path: $0) }
        events += temporariesRemoved.map(SyncEvent.removedTemporary)
        events += heldBackPaths.map(SyncEvent.heldBack)
        events += skips.sorted { $0.key < $1.key }.map { skip, reason in
            .skipped(replica: skip.replica, path: skip.path, reason: reason,
                     byDesign: skip.replica.map { passedOverPaths.contains(ReplicaPath($0, skip.path)) } ?? false)
        }
        if let stateProblem { events.append(.stateNotWritten(reason: stateProblem)) }
        return events
    }

    /// This report and that of a second pass run right after it, as one: what either
    /// did, and the state the second left.
    func followed(by next: SyncReport) -> SyncReport {
        var both = next
        both.copies = copies + next.copies
        both.deletions = deletions + next.deletions
        both.merges = merges + next.merges
        both.folds = folds + next.folds
        both.temporariesRemoved = temporariesRemoved + next.temporariesRemoved
        both.moves = moves + next.moves
        both.conflicts = conflicts.merging(next.conflicts) { $1 }
        // A copy kept by the first pass stays reported unless the second folded it.
        both.copiesKept = copiesKept.filter { !next.folds.contains($0.key.path) }.merging(next.copiesKept) { $1 }
        both.skips = skips.merging(next.skips) { $1 }
        both.stateProblem = next.stateProblem ?? stateProblem
        both.passedOverPaths = passedOverPaths.union(next.passedOverPaths)
        both.normalizations = normalizations + next.normalizations
        both.hashed = hashed + next.hashed
        return both
    }
}
