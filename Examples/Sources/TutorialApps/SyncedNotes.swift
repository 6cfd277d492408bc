import Folio

/// Notes on two devices: the app's folder kept in step with a replica (a USB stick, a
/// second machine's folder), what the last sync did, and which notes the replica brought.
@MainActor
public final class SyncedNotes {
    /// The folder and its replica.
    public let folder: SyncedFolder
    /// The notes, live: kept current from each change.
    public let notes: LiveQuery
    /// The paths the last syncs brought in from the replica.
    public private(set) var fromReplica: [String] = []
    private var following: Task<Void, Never>?

    /// Opens `path`, kept in step with `replica`, its sync state in `state`.
    public init(_ path: String, replica: String, state: String) async throws {
        var options = SyncOptions()
        options.stateDirectory = state
        folder = try await SyncedFolder.open(path, replica: replica, syncOptions: options)
        notes = try folder.store.liveQuery("kind:note")
        let changes = folder.store.changes()
        following = Task { [weak self] in
            for await change in changes where change.origin == .sync { self?.fromReplica += change.added + change.updated }
        }
    }

    /// Writes a note; the next sync takes it to the replica.
    @discardableResult
    public func add(_ title: String, _ text: String) async -> ActionResult { await folder.store.dispatch(.addNote(title: title, body: text)) }

    /// Syncs now and reads in what it brought; the last sync's outcome.
    public func syncNow() async -> Result<SyncReport, SyncError>? {
        await folder.settle()
        return folder.lastSync
    }

    /// Stops following.
    public func close() {
        following?.cancel()
        folder.close()
    }
}
