import FolioMerge
/// How a sync runs.
public struct SyncOptions: Sendable {
    /// Where the archive, the merge bases and the trash live (default: the per-pair
    /// folder under `$XDG_STATE_HOME/folio/`, else `~/.local/state/folio/`).
    public var stateDirectory: String?
    /// What a real conflict becomes: a conflict copy beside the file (default) or markers.
    public var conflicts: ConflictPolicy = .copy
    /// Report what would be done, and do nothing.
    public var dryRun = false
    /// Let a replica that is suddenly empty delete everything on the other side.
    public var allowMassDelete = false
    /// Hears how far a long sync is: the steps done and how many there are (called
    /// once per hundred steps, and at the end).
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    /// The defaults.
    public init() {}
}
