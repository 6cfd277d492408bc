import FolioStore
import FolioSync
import FolioSystem

/// A folder as an app's model layer: its ``Store`` (actions, queries, observation),
/// kept in step with the disk by a ``FolderWatcher`` and, when there is a replica,
/// with the replica by a ``PairWatcher`` — whose syncs write into the folder, where
/// the folder's watcher picks them up like any other edit.
@MainActor
public final class SyncedFolder {
    /// The store over the folder.
    public let store: Store
    private let watcher: FolderWatcher
    private let pair: PairWatcher?

    /// Opens `folder`, kept in step with `replica` when given (state as
    /// `folio sync`, in `syncOptions.stateDirectory` or the default place).
    /// `onSync` hears each sync's outcome.
    public static func open(
        _ folder: String, replica: String? = nil, watchOptions: WatchOptions = WatchOptions(), syncOptions: SyncOptions = SyncOptions(),
        onWarning: @escaping @Sendable (String) -> Void = { _ in },
        onSync: @escaping @Sendable (Result<SyncReport, SyncError>) -> Void = { _ in }
    ) async throws -> SyncedFolder {
        let store = try await Store.load(folder)
        let watcher = FolderWatcher(store: store, options: watchOptions, onWarning: onWarning)
        let pair = try replica.map { replica throws(SyncError) in
            PairWatcher(engine: try SyncEngine(folder, replica, options: syncOptions), options: watchOptions, report: onSync)
        }
        try watcher.start()
        pair?.start()
        return SyncedFolder(store: store, watcher: watcher, pair: pair)
    }

    private init(store: Store, watcher: FolderWatcher, pair: PairWatcher?) {
        self.store = store
        self.watcher = watcher
        self.pair = pair
    }

    /// Stops following the disk and the replica.
    public func close() {
        pair?.stop()
        watcher.stop()
    }
}
