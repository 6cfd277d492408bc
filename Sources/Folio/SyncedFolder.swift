import Observation
import FolioFolder
import FolioStore
import FolioSync
import FolioWatch
import FolioSystem

/// A folder as an app's model layer: its ``Store`` (actions, queries, observation),
/// kept in step with the disk by a ``FolderWatcher`` and, when there is a replica,
/// with the replica by a ``PairWatcher`` — which puts no second watch on the folder:
/// the folder's watcher hands it what it reads. The syncs' writes into the folder are
/// said to the store as each sync reports, so the watcher reads them as the sync's. Without a replica (an app
/// over a Syncthing, Dropbox or iCloud folder), the sync tool's conflict copies are
/// folded back into their files as they appear (``FoldingFollower``), against the
/// versions the folder's history recorded.
///
/// Observable: a view that shows ``lastSync``, ``lastFold`` or ``isReady`` is redrawn
/// when they change.
@MainActor
@Observable
public final class SyncedFolder {
    /// The store over the folder.
    public let store: Store
    private let watcher: FolderWatcher
    private let pair: PairWatcher?
    let folding: FoldingFollower?
    private let feeding: Task<Void, Never>?
    /// Run at ``close()``: ends access to a folder the user picked (see `open(picked:)`).
    @ObservationIgnored var whenClosed: (() -> Void)?
    /// The outcome of the last sync with the replica (nil: none yet, or no replica).
    public private(set) var lastSync: Result<SyncReport, SyncError>?
    /// The last fold pass that did something (without a replica).
    public private(set) var lastFold: FoldReport?
    /// Whether the folder is ready to use: read, its history recorded (without a
    /// replica), and the first sync done (with one).
    public private(set) var isReady = false
    /// The conflict copies in the folder with what can be done with each
    /// (``conflicts()``), kept: worked out again after a fold pass that did something, a
    /// sync that touched a conflict (or while there are some), and when a change touches
    /// a conflict copy — not after every sync, as the whole folder is walked for it.
    public private(set) var conflictStatuses: [ConflictCopyStatus] = []
    @ObservationIgnored private var conflictWatch: Task<Void, Never>?
    @ObservationIgnored private var refreshing: Task<Void, Never>?

    /// Opens `folder`, kept in step with `replica` when given (state as
    /// `folio sync`, in `syncOptions.stateDirectory` or the default place).
    /// `onSync` hears each sync's outcome. Without a replica, conflict copies are
    /// folded (state in `foldOptions.stateDirectory` or the folder's default place,
    /// locked while open) and `onFold` hears each fold pass that did something.
    public static func open(
        _ folder: String, replica: String? = nil, watchOptions: WatchOptions = WatchOptions(), syncOptions: SyncOptions = SyncOptions(),
        foldOptions: FoldOptions = FoldOptions(),
        onWarning: @escaping @Sendable (String) -> Void = { _ in },
        onSync: @escaping @Sendable (Result<SyncReport, SyncError>) -> Void = { _ in },
        onFold: @escaping @Sendable (FoldReport) -> Void = { _ in }
    ) async throws -> SyncedFolder {
        let engine = try replica.map { replica throws(SyncError) in try SyncEngine(folder, replica, options: syncOptions) }
        // Removed records go to the trash a fold of this folder keeps, or, with a replica,
        // the pair's (as replica A's): `folio restore` lists them with the rest.
        // Without a replica the load keeps what it read: the history's first record takes
        // it rather than reading the folder again.
        let (store, reads) = try await Store.loadKeepingReads(folder, removedFiles: FolderTrash(folder: folder, state: engine?.state ?? foldOptions.stateDirectory), keepingReads: engine == nil)
        // The reports arrive off the main actor, before the folder exists: kept here and
        // handed to it on the main actor. What a sync or fold wrote is said to the store at
        // the moment it reports, on the sync's queue (not later from the main actor): the watcher's next read is told as the sync's.
        let sink = ReportSink()
        let onSync: @Sendable (Result<SyncReport, SyncError>) -> Void = { [store] result in
            if case .success(let report) = result { store.expectSyncWrites(report.pathsWritten(in: .a)) }
            onSync(result)
            Task { @MainActor in
                guard let folder = sink.folder else { return }
                folder.lastSync = result
                guard case .success(let report) = result else { return }
                // The list is walked again only when this sync touched a conflict, or there were some.
                let touched = !report.conflicts.isEmpty || !report.copiesKept.isEmpty || !report.folds.isEmpty
                if touched || !folder.conflictStatuses.isEmpty { folder.refreshConflicts() }
            }
        }
        let onFold: @Sendable (FoldReport) -> Void = { [store] report in
            store.expectSyncWrites(report.foldedPaths)
            onFold(report)
            Task { @MainActor in
                guard let folder = sink.folder else { return }
                folder.lastFold = report
                // A pass reported did something to a copy: the list changed.
                folder.refreshConflicts()
            }
        }
        let watcher = FolderWatcher(store: store, options: watchOptions, onWarning: onWarning)
        // One watcher on the folder: the store's hands what it reads on to the pair's
        // sync, which watches only the replica.
        let pair = engine.map { PairWatcher(engine: $0, options: watchOptions, followedElsewhere: [.a], report: onSync) }
        if let pair {
            watcher.observeBatches { [weak pair] paths in pair?.marked(paths, in: .a) }
            // One read of each change: the sync takes the files the watcher read.
            watcher.observeReads { [weak pair] snapshot in pair?.offer(snapshot.reads, in: .a) }
        }
        var folding: FoldingFollower?
        var feeding: Task<Void, Never>?
        if pair == nil {
            let follower = FoldingFollower(folder: try SharedFolder(folder, options: foldOptions), onReport: onFold)
            let changes = store.changes()
            feeding = Task {
                // The app's own writes are recorded with their bytes as they land (below); this
                // change is told before its write (the state changes first), so reading the
                // file now could find the next version already: read once quiet, as any change.
                for await change in changes { follower.changed(change.paths) }
            }
            // One read of each change: the history takes the files the watcher read.
            watcher.observeReads { snapshot in follower.offer(snapshot.reads) }
            // The app's own writes are versions the moment they land, with the bytes written:
            // one edited again half a second later is still the base a copy made from it needs.
            store.ownWrites.observe { writes in follower.recordWritten(writes) }
            follower.start(alreadyRead: reads)
            // The history has what the folder holds in hand (logged next) before the app
            // can edit it: an edit made right after open has its base.
            await follower.ready()
            folding = follower
        }
        try watcher.start()
        pair?.start()
        let opened = SyncedFolder(store: store, watcher: watcher, pair: pair, folding: folding, feeding: feeding)
        sink.folder = opened
        opened.followConflicts()
        if let pair {
            Task { [weak opened] in
                _ = await pair.firstSync()
                opened?.isReady = true
            }
        } else {
            opened.isReady = true
        }
        return opened
    }

    private init(store: Store, watcher: FolderWatcher, pair: PairWatcher?, folding: FoldingFollower?, feeding: Task<Void, Never>?) {
        self.store = store
        self.watcher = watcher
        self.pair = pair
        self.folding = folding
        self.feeding = feeding
    }

    /// Folds the conflict copies that can be folded now, and returns what happened (an
    /// app that just saw the sync tool settle need not wait for the next pass).
    public func foldConflictCopies() -> FoldReport? {
        folding?.foldNow()
    }

    /// Waits for the first sync with the replica, and returns its outcome; nil without
    /// a replica, or when the folder was closed first.
    public func firstSync() async -> Result<SyncReport, SyncError>? {
        await pair?.firstSync()
    }

    /// Brings the store up to date and returns once what that started is done: what
    /// the folder holds is read in; with a replica, a sync runs; without one, the
    /// conflict copies are folded — each as soon as it and its file have been left alone
    /// for the quiet period (``FoldOptions/quietPeriod``), so a copy the sync tool has
    /// just written is waited for, not skipped; what that wrote is read in, and
    /// ``conflictStatuses`` worked out again. A copy still waiting on other devices'
    /// history (``FoldOptions/historyWait``) is left to the follower: it is
    /// ``ConflictCopyStatus/Verdict/waiting`` in ``conflictStatuses``.
    public func settle() async {
        await watcher.settle()
        // What the sync or fold writes is said to the store as it reports (see `open`),
        // before the watcher reads it: its change is told as `.sync`.
        if let pair {
            _ = await pair.syncNow()
        } else if let folding {
            await folding.settle()
        }
        await watcher.settle()
        refreshConflicts()
        await conflictsSettled()
    }

    /// The folder's path.
    public var root: String { store.root }

    /// The conflict copies in the folder, each with what can be done with it: a fold
    /// would fold it (and against what), why it would keep it, or that a person decides
    /// (a copy `folio sync` saved). Read off the main actor; nothing is written.
    public func conflicts() async throws(SyncError) -> [ConflictCopyStatus] {
        let root = root, state = folding == nil ? nil : foldState
        return try await Task.detached {
            Result { () throws(SyncError) in try ConflictCopyStatus.all(in: root, state: state) }
        }.value.get()
    }

    /// How the conflict copy `copy` (relative to the folder) differs from its file: the
    /// fields that clash, with both values, and the body's lines. When the file is gone,
    /// the copy's every field and line is listed as added and
    /// ``ConflictDifference/fileIsGone`` says so (keeping the copy puts the file back).
    /// - Throws: ``SyncError`` when `copy` is not a conflict copy, or cannot be read.
    public func difference(for copy: String) throws(SyncError) -> ConflictDifference {
        guard let file = store.state.conflictCopyNames.originalOfAnyCopy(copy) else { throw Self.notAConflictCopy(copy) }
        do {
            let copyBytes = try FileReading.contents(of: store.folder[copy])
            guard let fileBytes = try AtomicFile.contentsIfPresent(store.folder[file]) else { return ConflictDifference(fileGoneWithCopy: copyBytes) }
            return ConflictDifference(file: fileBytes, copy: copyBytes)
        } catch {
            throw SyncError(error.isMissingPath ? .replicaMissing : .fileIO, FileProblem.reading(error, then: "try again"))
        }
    }

    /// How the conflict copy `copy` differs from its file; nil when the file is gone.
    @available(*, deprecated, message: "use difference(for:): one way to fail (it throws SyncError), and a file that is gone is ConflictDifference.fileIsGone rather than nil")
    public func difference(of copy: String) throws(SystemError) -> ConflictDifference? {
        guard let file = store.state.conflictCopyNames.originalOfAnyCopy(copy) else { return nil }
        let copyBytes = try FileReading.contents(of: store.folder[copy])
        return try AtomicFile.contentsIfPresent(store.folder[file]).map { ConflictDifference(file: $0, copy: copyBytes) }
    }

    /// Settles the conflict copy `copy` (relative to the folder) by hand: keeps the
    /// file, keeps the copy (its content put in the file), or merges the copy into the
    /// file, marking only what truly clashes. What loses goes to the folder's trash
    /// (``Store/trashedFiles()``); every write is guarded. The store reads the result in.
    /// - Throws: ``SyncError`` saying what could not be done; nothing is lost then.
    public func resolve(_ copy: String, by choice: ConflictResolution.Choice) async throws(SyncError) -> ConflictResolution.Outcome {
        guard let file = store.state.conflictCopyNames.originalOfAnyCopy(copy) else { throw Self.notAConflictCopy(copy) }
        func settle(_ folder: SharedFolder) throws -> ConflictResolution.Outcome {
            try ConflictResolution(folder: folder, copy: copy, file: file).settle(choice)
        }
        let outcome: ConflictResolution.Outcome
        do {
            // The follower holds the folder's lock: the resolution runs between its passes.
            outcome = try folding.map { try $0.withFolder(settle) } ?? settle(try SharedFolder(root, options: FoldOptions()))
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.fileIO, "cannot settle \(copy): \(error)")
        }
        await watcher.settle()
        refreshConflicts()
        return outcome
    }

    private static func notAConflictCopy(_ path: String) -> SyncError {
        SyncError(.fileIO, "\(path) is not a conflict copy (NAME.sync-conflict-…, NAME (… conflicted copy …))")
    }

    /// Keeps ``conflictStatuses``: worked out now, and again when a change touches a
    /// conflict copy (one appearing, changing or going).
    private func followConflicts() {
        refreshConflicts()
        let changes = store.changes()
        conflictWatch = Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                let names = store.state.conflictCopyNames
                // folio.yaml changing may make copies of files, or files of copies.
                if change.paths.contains(where: { $0 == "folio.yaml" || names.originalOfAnyCopy($0) != nil }) { refreshConflicts() }
            }
        }
    }

    /// Works out ``conflictStatuses`` again, off the main actor (one pass at a time; a
    /// pass that cannot read the folder leaves the list as it was, and the next tries again).
    func refreshConflicts() {
        let previous = refreshing
        refreshing = Task { [weak self] in
            await previous?.value
            // A folder that cannot be read now keeps the list it had; the next change or pass tries again.
            guard let self, let statuses = try? await self.conflicts(), statuses != self.conflictStatuses else { return }
            self.conflictStatuses = statuses
        }
    }

    /// Waits until the conflict list is worked out (for tests and an app that must show it at once).
    public func conflictsSettled() async { await refreshing?.value }

    /// The state folder a fold of this folder keeps (its trash, its history).
    private var foldState: String? { (store.removedFiles as? FolderTrash)?.state }

    /// Stops following the disk and the replica.
    public func close() {
        conflictWatch?.cancel()
        feeding?.cancel()
        folding?.stop()
        pair?.stop()
        watcher.stop()
        whenClosed?()
        whenClosed = nil
    }
}

/// Where the reports a folder's watchers send before and while it is open are handed
/// to it.
@MainActor
private final class ReportSink {
    weak var folder: SyncedFolder?
}
