import FolioFolder
import FolioShared
import FolioVersions
extension SyncReport {
    /// The key of ``skipped`` under which the sync says what of its state it could not write.
    public static let stateKey = "state"

    /// Paths copied from one replica to the other.
    public var copied: [String] { copies.map(\.path.key) }
    /// Paths deleted on one side as the other deleted them.
    public var deleted: [String] { deletions.map(\.path.key) }
    /// Paths both sides changed, merged into one version (a path in ``conflicts`` is not).
    public var merged: [String] { merges.filter { conflicts[$0] == nil }.map(\.key) }
    /// Conflict copies folded back into their files.
    public var folded: [String] { folds.map(\.key) }
    /// Conflict copies kept, by `A:COPY`, and why.
    public var keptCopies: [String: String] { Dictionary(copiesKept.map { ($0.key.description, $0.value) }) { $1 } }
    /// Folio's temporaries removed, as `A:PATH`.
    public var removedTemporaries: [String] { temporariesRemoved.map(\.description) }
    /// Renames carried across, as `FROM → TO`.
    public var moved: [String] { moves.map { "\($0.from) → \($0.to)" } }
    /// Paths left alone (`A:PATH`, or `PATH` for both, and ``stateKey`` for the state), and why.
    public var skipped: [String: String] {
        var skipped = Dictionary(skips.map { ($0.key.description, $0.value) }) { $1 }
        if let stateProblem { skipped[Self.stateKey] = stateProblem }
        return skipped
    }
    /// The keys of ``skipped`` left alone by design (links, devices).
    public var passedOver: Set<String> { Set(passedOverPaths.map(\.description)) }
    /// Names renamed to NFC, as `A:PATH`.
    public var normalized: [String] { normalizations.map(\.description) }
    /// Paths held back by the other replica's `.folioignore`, as `A:PATH`.
    public var heldBack: [String] { heldBackPaths.map(\.description) }
}

extension SyncReport {
    /// The files the sync wrote, renamed or removed in `replica`: copied or deleted
    /// there, merged (on both sides), renamed there (both names), and the conflict
    /// copies it saved.
    public func pathsWritten(in replica: Replica) -> [String] {
        let written = copies.filter { $0.replica == replica }.map(\.path) + deletions.filter { $0.replica == replica }.map(\.path) + merges
            + moves.filter { $0.replica == replica }.flatMap { [$0.from, $0.to] } + conflicts.values.compactMap { $0 }
        return written.map(\.key)
    }
}
