import Dispatch
import FolioStore
import FolioSystem

/// Keeps a ``Store`` in step with its folder: the platform watcher's hints mark paths
/// dirty; after the quiet period the batch is read from disk off the main actor, and
/// the store decides by content what changed (``Store/apply(_:)``), so its own writes
/// read back change nothing and a move with unchanged bytes is a move.
///
/// `@unchecked Sendable` is safe: the mutable properties (`watcher`, `batch`,
/// `timerArmed`, `applying`, `rescanTimer`, `stopped`, `batchesApplied`, `folder`) are read and
/// written only on `queue`.
public final class FolderWatcher: @unchecked Sendable {
    /// The store kept in step.
    public let store: Store
    /// The options in force.
    public let options: WatchOptions
    private let root: String
    /// The store's folder, pinned: what the watcher reads goes through it. Pinned again
    /// (with the store's) when another folder is at the path (read on `queue`).
    private var folder: RootedFolder
    private let queue = DispatchQueue(label: "folio.watch.batches")
    private var watcher: (any DirectoryWatcher)?
    private var batch: DirtyBatch
    /// Record files known to have other names (hard links), as last read.
    private var linkedNames: Set<String> = []
    private var timerArmed: ContinuousClock.Instant?
    private var applying = false
    private var stopped = false
    /// Counts batches, so an idle timer armed after one can tell that another came since.
    private var batchesApplied = 0
    private var rescanTimer: FollowerTimer?
    private let warningSink: @Sendable (String) -> Void
    private var batchObservers: [@Sendable (Set<String>) -> Void] = []
    private var snapshotObserver: (@Sendable (DiskSnapshot) -> Void)?
    private var readObservers: [@Sendable (DiskSnapshot) -> Void] = []

    /// A watcher for `store`'s folder; `onWarning` hears what the user should know
    /// (a watch limit reached, a rescan after lost events).
    @MainActor
    public init(store: Store, options: WatchOptions = WatchOptions(), onWarning: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.options = options
        batch = DirtyBatch(longestWrite: options.longestWrite)
        self.root = store.root
        self.folder = store.folder
        self.warningSink = onWarning
    }

    /// Starts watching. Changes made between the store's load and this call are found
    /// by one read of the whole folder right after the watches are set up.
    public func start() throws(SystemError) {
        let watcher = makeDirectoryWatcher(root: root, backend: options.backend) { [weak self] hints in
            self?.receive(hints)
        }
        try watcher.start()
        queue.sync {
            self.watcher = watcher
            batch.note([.rescan(reason: "watching started")], at: options.clock.now)
            if let interval = options.rescanInterval {
                rescanTimer = options.clock.repeating(every: interval, on: queue) { [weak self] in
                    self?.rescan(because: "periodic rescan")
                }
            }
            schedule()
        }
    }

    /// Stops watching; a batch being applied finishes, no other follows.
    public func stop() {
        let watcher: (any DirectoryWatcher)? = queue.sync {
            stopped = true
            rescanTimer?.cancel()
            return self.watcher
        }
        watcher?.stop()
    }

    /// Reads and applies, now, every change made before the call: the platform queue is
    /// drained, and the marked paths are read without waiting for the quiet period.
    /// For tests and for callers that just wrote behind the store's back.
    public func settle() async {
        // A batch can ask for another (a file with other names read again): followed a few times.
        for _ in 0..<3 where await settleOnce() {}
    }

    /// One round of ``settle()``; whether it left more marked.
    private func settleOnce() async -> Bool {
        let watcher: (any DirectoryWatcher)? = queue.sync { self.watcher }
        watcher?.drain()
        // Wait for a batch being applied, then take the rest in the same step.
        var taken: Set<String>?
        while true {
            let (busy, paths): (Bool, Set<String>?) = queue.sync {
                if applying { return (true, nil) }
                guard !stopped else { return (false, nil) }
                applying = true
                return (false, takeBatch(holdingWrites: false))
            }
            if !busy {
                taken = paths
                break
            }
            // Cancellation only cuts this pause short: the loop still waits for the batch being applied, which ends.
            try? await Task.sleep(for: .milliseconds(1))
        }
        guard let paths = taken else { return false }
        if !paths.isEmpty {
            let (folder, paths, repinned) = queue.sync { followingThePath(paths) }
            if repinned { await store.repin(folder) }
            let writes = store.writes
            let snapshot = await Task.detached { DiskSnapshot.read(paths, under: folder, notingWrites: writes) }.value
            for observer in queue.sync(execute: { readObservers }) { observer(snapshot) }
            await store.apply(snapshot, waitingForRereads: true)
            queue.sync { followUp(on: snapshot) }
        }
        queue.sync { applying = false }
        queue.async { self.batchDone() }
        return queue.sync { !batch.isEmpty || applying }
    }

    /// Waits until every event the platform has told of is marked, and no batch is being
    /// read or applied: what is due by the watcher's clock is done, nothing else is taken.
    /// For tests that move a ``FollowerClock`` by hand and then look ("not read yet").
    package func caughtUp() async {
        let watcher: (any DirectoryWatcher)? = queue.sync { self.watcher }
        watcher?.drain()
        // The batch being applied ends on the main actor: each pause lets it run.
        while queue.sync(execute: { applying }) { try? await Task.sleep(for: .milliseconds(1)) }
    }

    /// Runs `body` while the kernel's events wait unread in its queue (dropped past its
    /// size): for tests that overflow it.
    package func withEventsQueued(_ body: () throws -> Void) rethrows {
        let watcher: (any DirectoryWatcher)? = queue.sync { self.watcher }
        guard let watcher else { return try body() }
        try watcher.withEventsQueued(body)
    }

    /// Calls `observer` (on the watcher's queue) with the paths of each batch read from
    /// disk (`""` for the whole folder): how the pair's watcher follows the folder this
    /// one watches rather than putting a second watch on it (``SyncedFolder``), and how
    /// tests tell that the watcher did see a write rather than passing because it saw
    /// nothing. Observers are called in the order they were added.
    package func observeBatches(_ observer: @escaping @Sendable (Set<String>) -> Void) {
        queue.sync { batchObservers.append(observer) }
    }

    /// Calls `observer` with each snapshot as soon as it is read, before the store applies
    /// it (and so before the store tells of the change): how the fold's history takes
    /// the files the watcher read rather than reading them again (``FoldingFollower``).
    /// Called on the watcher's queue, or the task that settles it; observers in the order
    /// they were added.
    package func observeReads(_ observer: @escaping @Sendable (DiskSnapshot) -> Void) {
        queue.sync { readObservers.append(observer) }
    }

    /// Calls `observer` (on the watcher's queue) with each snapshot once applied: for a
    /// test's trace of what the watcher read.
    package func observeSnapshots(_ observer: @escaping @Sendable (DiskSnapshot) -> Void) {
        queue.sync { snapshotObserver = observer }
    }

    /// The folder to read `paths` from: the pinned one while it is still the folder at
    /// the root's path; else the one there now, pinned instead, and then the whole
    /// folder is read (`repinned`). A path with no folder leaves the pin: reading the
    /// removed folder finds it empty, as it is. Runs on `queue`.
    private func followingThePath(_ paths: Set<String>) -> (folder: RootedFolder, paths: Set<String>, repinned: Bool) {
        // No folder at the path: the pin stays, and reading the removed folder finds it empty, as it is.
        guard let now = try? RootedFolder(root), !now.isSameFolder(as: folder) else { return (folder, paths, false) }
        folder = now
        return (now, [""], true)
    }

    /// After a batch is applied: what it left out is said, as a fresh load says it (a
    /// name with a twin spelling, a file that cannot be read); and a file with other
    /// names (hard links) that changed, or one of whose names went, has the whole folder
    /// read again, since inotify tells of the name written only. Runs on `queue`.
    private func followUp(on snapshot: DiskSnapshot) {
        snapshotObserver?(snapshot)
        for problem in snapshot.problems { warningSink(FileProblem.line(problem)) }
        watcher?.readerFound(snapshot.foundFiles)
        // A name of a linked file gone (removed, moved, replaced by another file): it may
        // have been written through just before, which inotify told of that name only.
        var gone: [String] = []
        for (path, entry) in snapshot.entries {
            switch entry {
            case .missing:
                gone += linkedNames.filter { RelativePath.isAt($0, orBelow: path) }
            case .folder(let files):
                // A linked name where a folder now is (a file made a folder) went too.
                gone += linkedNames.filter { $0 == path || (RelativePath.isAt($0, orBelow: path) && files[$0] == nil) }
            case .file:
                if linkedNames.contains(path) && snapshot.hasOtherNames[path] == false { gone.append(path) }
            case .unreadable:
                break
            }
        }
        linkedNames.subtract(gone)
        for (path, linked) in snapshot.hasOtherNames {
            if linked { linkedNames.insert(path) } else { linkedNames.remove(path) }
        }
        // Nothing to read again when the whole folder was just read.
        if case .folder? = snapshot.entries[""] { return }
        if snapshot.changedFileHasOtherNames {
            batch.note([.rescan(reason: "a file with several names (hard links) changed: reading its other names")], at: options.clock.now)
        } else if !gone.isEmpty {
            batch.note([.rescan(reason: "a name of a file with several names (hard links) went: reading its other names")], at: options.clock.now)
        }
    }

    /// The marked paths, taken from the batch and shown to the observer. Runs on `queue`.
    private func takeBatch(holdingWrites: Bool = true) -> Set<String> {
        let paths = batch.take(holdingWrites: holdingWrites)
        for observer in batchObservers { observer(paths) }
        return paths
    }

    private func receive(_ hints: [WatchHint]) {
        queue.async { [self] in
            for case .warning(let text) in hints { warningSink(text) }
            for case .rescan(let reason) in hints { warningSink("rescanning: \(reason)") }
            batch.note(hints, at: options.clock.now)
            schedule()
        }
    }

    /// Marks everything to be read again, for `reason`, and schedules it. Runs on `queue`.
    private func rescan(because reason: String) {
        batch.note([.rescan(reason: reason)], at: options.clock.now)
        schedule()
    }

    /// Reads the batch when it is due, or arms a timer for then. Runs on `queue`.
    private func schedule() {
        guard !stopped, !applying else { return }
        guard BatchTiming.isDue(batch, options: options, queue: queue, armed: &timerArmed, later: { [self] deadline in
            guard timerArmed == deadline else { return }
            timerArmed = nil
            schedule()
        }) else { return }
        let (folder, paths, repinned) = followingThePath(takeBatch())
        applying = true
        let snapshot = DiskSnapshot.read(paths, under: folder, notingWrites: store.writes)
        for observer in readObservers { observer(snapshot) }
        let store = self.store
        Task { @MainActor in
            if repinned { store.repin(folder) }
            store.apply(snapshot)
            self.queue.async {
                self.applying = false
                self.followUp(on: snapshot)
                self.batchDone()
            }
        }
    }

    /// After a batch: the next one, or, once the folder has stayed quiet, a tidy store.
    /// Runs on `queue`.
    private func batchDone() {
        batchesApplied += 1
        schedule()
        guard let quiet = options.tidyAfter else { return }
        let count = batchesApplied
        options.clock.run(after: quiet, on: queue) { [weak self] in
            guard let self, count == batchesApplied, !applying, !stopped, batch.isEmpty else { return }
            let store = self.store
            Task { @MainActor in store.tidy() }
        }
    }
}
