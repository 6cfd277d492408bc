import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem

/// What a sync did.
public struct SyncReport: Sendable, Equatable {
    /// Paths copied from one replica to the other.
    public var copied: [String] = []
    /// Paths deleted on one side as the other deleted them (moved into the trash).
    public var deleted: [String] = []
    /// Paths both sides changed, merged into one version.
    public var merged: [String] = []
    /// Other tools' conflict copies merged back into their files and removed.
    public var folded: [String] = []
    /// Other tools' conflict copies that could not be folded (`A:path` or `B:path`), and
    /// why: a real clash (`time (20m | 25m)`), no base. They stay, and are synced as files.
    public var keptCopies: [String: String] = [:]
    /// Folio's own temporary files left by a killed process, removed.
    public var removedTemporaries: [String] = []
    /// Renames carried across, as `from → to`.
    public var moved: [String] = []
    /// Paths with a real conflict, and the conflict copy saved beside each (nil with markers).
    public var conflicts: [String: String?] = [:]
    /// Paths that changed while the sync ran: left for the next sync.
    public var changedDuringSync: [String] = []
    /// Paths left alone, and why.
    public var skipped: [String: String] = [:]
    /// The key of ``skipped`` under which a sync says what of its state it could not
    /// write (a merge base, a flush): the files may be in step, but the disk refused.
    public static let stateKey = "state"
    /// Whether the sync could not write part of its state (`folio sync` exits 3).
    public var couldNotWriteState: Bool { skipped[Self.stateKey] != nil }
    /// The keys of ``skipped`` left alone by design (links, devices): not problems.
    public var passedOver: Set<String> = []
    /// Names renamed to NFC in their replica (`A:PATH`), so that both replicas spell them alike.
    public var normalized: [String] = []
    /// Paths one replica's own rules would sync that the other replica's `.folioignore`
    /// holds back (`A:PATH`: A's file, which B's rules ignore; folders end in `/`).
    public var heldBack: [String] = []
    /// How many files each replica holds now.
    public var files = 0
    /// How many files were read and hashed (the rest were known by their stamps).
    public var hashed = 0

    /// Whether the replicas now hold the same (conflicts aside).
    public var replicasAgree: Bool { changedDuringSync.isEmpty }

    /// Whether the sync found anything for the user to do: a conflict, a copy it could
    /// not fold, a file that changed while it ran, or a path it could not sync (a name
    /// the other side cannot hold or that is not UTF-8, a file it could not read or
    /// write) — `folio sync` exits 1 for these. Links and devices, left alone by design,
    /// are not.
    public var foundProblems: Bool {
        !conflicts.isEmpty || !keptCopies.isEmpty || !replicasAgree || skipped.keys.contains { !passedOver.contains($0) }
    }

    /// This report and that of a second pass run right after it, as one: what either
    /// did, and the state the second left.
    func followed(by next: SyncReport) -> SyncReport {
        var both = next
        both.copied = copied + next.copied
        both.deleted = deleted + next.deleted
        both.merged = merged + next.merged
        both.folded = folded + next.folded
        both.removedTemporaries = removedTemporaries + next.removedTemporaries
        both.moved = moved + next.moved
        both.conflicts = conflicts.merging(next.conflicts) { $1 }
        // A copy kept by the first pass stays reported unless the second folded it.
        both.keptCopies = keptCopies.filter { !next.folded.contains(String($0.key.dropFirst(2))) }.merging(next.keptCopies) { $1 }
        both.skipped = skipped.merging(next.skipped) { $1 }
        both.passedOver = passedOver.union(next.passedOver)
        both.normalized = normalized + next.normalized
        both.hashed = hashed + next.hashed
        return both
    }
}
