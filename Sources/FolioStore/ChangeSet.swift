import FolioModel
/// What one action changed, for observers.
public struct ChangeSet: Sendable, Hashable {
    /// Paths of new records.
    public var added: [String] = []
    /// Paths of changed records.
    public var updated: [String] = []
    /// Paths of removed records.
    public var removed: [String] = []
    /// Records that moved with their content unchanged, as (from, to).
    public var moved: [Move] = []
    /// Whether the settings changed.
    public var settingsChanged = false
    /// The settings keys whose values changed, for a view that shows only some of them.
    public var settingKeys: [String] = []
    /// The kinds whose list is in a new order (workouts sorted, todos moved or ordered).
    public var reordered: [Kind] = []
    /// Where the change came from.
    public var origin = Origin.disk
    /// For each record the store edited, the front-matter keys the edit set, changed or
    /// removed, in the file's order. A record changed on disk is not here: the store keeps
    /// no copy of its fields from before.
    public var changedFields: [String: [String]] = [:]

    /// Where a change came from.
    public enum Origin: Sendable, Hashable {
        /// An action the app dispatched: its own edit.
        case action
        /// A sync with the replica or a fold of conflict copies, run by the app's own
        /// `SyncedFolder`, wrote every file the change is about.
        case sync
        /// The disk: a file another program (a sync tool, an editor) wrote, or the store
        /// reading a file again.
        case disk
    }

    /// Every path the change is about: added, updated, removed, and both ends of each move.
    public var paths: [String] { added + updated + removed + moved.flatMap { [$0.from, $0.to] } }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty && moved.isEmpty && !settingsChanged && reordered.isEmpty }

    /// A record that moved.
    public struct Move: Sendable, Hashable {
        /// Where it was.
        public var from: String
        /// Where it is.
        public var to: String
    }

    /// This change set followed by `later`.
    public mutating func append(_ later: ChangeSet) {
        added += later.added
        updated += later.updated
        removed += later.removed
        moved += later.moved
        settingsChanged = settingsChanged || later.settingsChanged
        settingKeys += later.settingKeys.filter { !settingKeys.contains($0) }
        reordered += later.reordered.filter { !reordered.contains($0) }
        changedFields.merge(later.changedFields) { earlier, later in earlier + later.filter { !earlier.contains($0) } }
    }
}
