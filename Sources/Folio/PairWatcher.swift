import Dispatch
import FolioSync
import FolioWatch
import FolioSystem

/// Keeps two replicas in step continuously: a watcher on each side marks paths dirty,
/// and after the quiet period one sync of those paths runs (``SyncEngine/run(hints:memory:)``).
/// Both replicas are scanned whole at the start, when a watcher lost events or a
/// replica's watch was set up again, when a replica comes back, and every
/// ``WatchOptions/rescanInterval`` (an hour by default), to catch what was missed.
/// A replica that disappears (a USB stick pulled out) only pauses it: each later round
/// tries again, and the replica's watcher is set up again when it is back.
///
/// `@unchecked Sendable` is safe: every mutable property (the continuations waiting for
/// the first sync among them) is read and written only on
/// `queue` (hints, timers and syncs all run there; ``start()`` and ``stop()`` enter it
/// with `queue.sync`).
public final class PairWatcher: @unchecked Sendable {
    private let engine: SyncEngine
    private let options: WatchOptions
    private let report: @Sendable (Result<SyncReport, SyncError>) -> Void
    /// The replicas another watcher follows for this one (``marked(_:in:)``).
    private let followedElsewhere: Set<Replica>
    private let queue = DispatchQueue(label: "folio.watch.pair")
    private var watchers: [Replica: any DirectoryWatcher] = [:]
    private var batch: DirtyBatch
    private var timerArmed: ContinuousClock.Instant?
    private var stopped = false
    private var rescanTimer: FollowerTimer?
    private var firstOutcome: Result<SyncReport, SyncError>?
    private var waitingForFirst: [CheckedContinuation<Result<SyncReport, SyncError>?, Never>] = []
    /// The archive and the unsettled paths, from one sync to the next.
    private var memory = SyncMemory()
    /// Whether the next sync must look at both replicas whole.
    private var wholeSyncDue = true

    /// A watcher of `engine`'s replicas; `report` hears each sync's outcome.
    public convenience init(engine: SyncEngine, options: WatchOptions = WatchOptions(),
                            report: @escaping @Sendable (Result<SyncReport, SyncError>) -> Void) {
        self.init(engine: engine, options: options, followedElsewhere: [], report: report)
    }

    /// A watcher of `engine`'s replicas that puts no watch of its own on those in
    /// `followedElsewhere`: another watcher of that folder (a store's ``FolderWatcher``)
    /// hands on what it marks there (``marked(_:in:)``), so that a folder has one watcher.
    package init(engine: SyncEngine, options: WatchOptions, followedElsewhere: Set<Replica>,
                 report: @escaping @Sendable (Result<SyncReport, SyncError>) -> Void) {
        self.engine = engine
        self.options = options
        self.followedElsewhere = followedElsewhere
        self.batch = DirtyBatch(longestWrite: options.longestWrite)
        self.report = report
    }

    /// Takes what another watcher of `replica` (one in ``init(engine:options:followedElsewhere:report:)``'s
    /// `followedElsewhere`) read as changed there: the paths, relative to the replica
    /// (`""` for all of it), are synced after the quiet period as this watcher's own
    /// hints would be.
    package func marked(_ paths: Set<String>, in replica: Replica) {
        queue.async { [self] in
            let hints = paths.map { path -> WatchHint in
                path.isEmpty ? .rescan(reason: "the folder's watcher read it whole") : Self.onReplica(replica, .changed(path))
            }
            batch.note(hints, at: options.clock.now)
            schedule()
        }
    }

    /// Syncs once, then follows both replicas until ``stop()``.
    public func start() {
        queue.sync {
            let every = options.rescanInterval ?? .seconds(3600)
            rescanTimer = options.clock.repeating(every: every, on: queue) { [weak self] in
                self?.rescan(because: "periodic sync")
            }
        }
        // The first sync at once, not after a quiet period.
        queue.async { if !self.stopped { _ = self.sync() } }
    }

    /// Stops watching; a sync under way finishes first.
    public func stop() {
        let watchers: [any DirectoryWatcher] = queue.sync {
            stopped = true
            rescanTimer?.cancel()
            for waiting in waitingForFirst { waiting.resume(returning: nil) }
            waitingForFirst = []
            defer { self.watchers = [:] }
            return Array(self.watchers.values)
        }
        for watcher in watchers { watcher.stop() }
    }

    /// The outcome of the first sync (the one ``start()`` begins), once it is done; nil
    /// when the watcher was stopped before it ran. Waits until ``start()`` is called.
    public func firstSync() async -> Result<SyncReport, SyncError>? {
        await withCheckedContinuation { waiting in
            queue.async {
                if let outcome = self.firstOutcome {
                    waiting.resume(returning: outcome)
                } else if self.stopped {
                    waiting.resume(returning: nil)
                } else {
                    self.waitingForFirst.append(waiting)
                }
            }
        }
    }

    /// Runs a sync now, after one under way, and returns its outcome (reported as any);
    /// nil when the watcher is stopped.
    public func syncNow() async -> Result<SyncReport, SyncError>? {
        await withCheckedContinuation { done in
            queue.async {
                self.wholeSyncDue = true
                done.resume(returning: self.stopped ? nil : self.sync())
            }
        }
    }

    /// Waits until every event both replicas' watchers have told of is marked: what is
    /// due by the watcher's clock then runs when the clock reaches it (a sync runs on the
    /// watcher's queue, so a clock moved by hand returns once it is done). For tests
    /// that move a ``FollowerClock`` by hand and then look ("not synced yet").
    package func caughtUp() {
        let watchers: [any DirectoryWatcher] = queue.sync { Array(self.watchers.values) }
        for watcher in watchers { watcher.drain() }
        queue.sync {}
    }

    /// Takes `reads`, files of `replica` another watcher of it just read (a store's), so
    /// that the next sync does not read again a file still as read (its stamp).
    package func offer(_ reads: [FileRead], in replica: Replica) {
        guard !reads.isEmpty else { return }
        queue.async { [self] in memory.offer(reads, in: replica) }
    }

    private func ensureWatchers() {
        for replica in Replica.allCases where watchers[replica] == nil && !followedElsewhere.contains(replica) {
            let root = engine.root(replica)
            let watcher = makeDirectoryWatcher(root: root, backend: options.backend) { [weak self] hints in
                guard let self else { return }
                self.queue.async {
                    self.batch.note(hints.map { Self.onReplica(replica, $0) }, at: self.options.clock.now)
                    self.schedule()
                }
            }
            // A replica that cannot be watched now (not there, or the watch refused) is tried
            // again at the next round; the periodic sync covers it meanwhile, and reports a missing one.
            if (try? watcher.start()) != nil {
                watchers[replica] = watcher
                // What changed before the watch was set up was seen by no watcher.
                wholeSyncDue = true
            }
        }
    }

    /// Marks everything to be read again, for `reason`, and schedules it. Runs on `queue`.
    private func rescan(because reason: String) {
        batch.note([.rescan(reason: reason)], at: options.clock.now)
        schedule()
    }

    private func schedule() {
        guard !stopped else { return }
        // A sync reads both whole trees, so it waits while any file is open for writing
        // (bounded), then takes everything.
        guard BatchTiming.isDue(batch, options: options, queue: queue, armed: &timerArmed, wholeTree: true, later: { [self] deadline in
            guard timerArmed == deadline else { return }
            timerArmed = nil
            schedule()
        }) else { return }
        let taken = batch.take(holdingWrites: false)
        // `A` or `B` alone is a replica's root; `""` a rescan.
        var paths: Set<String> = []
        for path in taken {
            guard let slash = path.firstIndex(of: "/") else {
                wholeSyncDue = true
                continue
            }
            paths.insert(String(path[path.index(after: slash)...]))
        }
        // Hints only on what no sync looks at (Folio's own temporary files, say), and nothing left from before: nothing to do.
        guard wholeSyncDue || !paths.isEmpty || !memory.unsettled.isEmpty else { return }
        _ = sync(hints: paths)
    }

    /// A hint of `replica`'s watcher, its path put under the replica's name: the batch
    /// keeps the replicas apart (a file written in A and replaced in B by the sync is no
    /// name written through and then replaced), and the sync takes the paths of both.
    static func onReplica(_ replica: Replica, _ hint: WatchHint) -> WatchHint {
        func under(_ path: String) -> String { RelativePath(replica.rawValue).appending(path).string }
        switch hint {
        case .changed(let path): return .changed(under(path))
        case .writing(let path): return .writing(under(path))
        case .closed(let path): return .closed(under(path))
        case .rescan, .warning: return hint
        }
    }

    /// One sync, its outcome reported (and kept, for the first). Runs on `queue`.
    private func sync(hints: Set<String> = []) -> Result<SyncReport, SyncError> {
        ensureWatchers()
        let whole = wholeSyncDue
        wholeSyncDue = false
        // Each sync pins the replicas afresh: a stick unmounted and mounted again, or a
        // folder made again at its path, is the folder synced from then on.
        let outcome = Result { () throws(SyncError) in try engine.repinned().run(hints: whole ? nil : hints, memory: &memory) }
        if case .failure = outcome {
            wholeSyncDue = true
            // Replica gone: drop its watcher so that it is set up again when it is back,
            // and look again in two seconds rather than at the next periodic sync.
            // A probe: a root that cannot be opened is gone, and the sync reports it missing.
            for (replica, watcher) in watchers where (try? RootedFolder(engine.root(replica))) == nil {
                watcher.stop()
                watchers[replica] = nil
            }
            options.clock.run(after: .seconds(2), on: queue) { [weak self] in
                self?.rescan(because: "a replica was missing")
            }
        }
        report(outcome)
        if firstOutcome == nil {
            firstOutcome = outcome
            for waiting in waitingForFirst { waiting.resume(returning: outcome) }
            waitingForFirst = []
        }
        return outcome
    }
}
