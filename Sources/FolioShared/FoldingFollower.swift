import Dispatch
import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions
import Foundation

/// Folds a followed folder's conflict copies as they appear, for `folio watch DIR` and
/// ``SharedFolder``-backed apps: told which paths changed (by a watcher), it records
/// what they hold in the shared history once they have been left alone for the quiet
/// period (never a file still being written) and, once the sync tool has left a copy
/// and its file alone too, folds it; what is not quiet yet is tried again shortly.
/// Other devices' history arrives through the sync tool: when their logs grow, the
/// copies still in the folder are tried again. A full pass also runs every `interval`.
/// A copy kept only because a write failed (a full disk) is said once and tried again
/// every ``FoldOptions/writeRetry`` until it folds.
/// While git is in the middle of an operation nothing is recorded or written; it is
/// reported once, and what changed meanwhile is recorded when git is done.
///
/// `@unchecked Sendable` is safe: every stored property but the constants is touched
/// only on `queue`, a serial queue, except ``takenAtStart``, which is touched only with
/// `readiness` held; `onReport` is `@Sendable`.
public final class FoldingFollower: @unchecked Sendable {
    private let folder: SharedFolder
    private let queue = DispatchQueue(label: "folio.fold")
    private let interval: Duration
    private let onReport: @Sendable (FoldReport) -> Void
    private var timer: FollowerTimer?
    private var retryAt: ContinuousClock.Instant?
    private var stopped = false
    /// Paths to record once they are quiet (or git is done).
    private var unrecorded = Set<String>()
    /// Files another reader of the folder (the store's watcher) read a moment ago, by
    /// path (``offer(_:)``): a record takes one rather than reading the file again while
    /// the file is still as read (its stamp says so).
    private var offered: [String: FileRead] = [:]
    /// Whether copies were in the folder at the last pass: then other devices' history
    /// arriving is worth another pass.
    private var copiesLeft = false
    private var sinceFullPass: Duration = .zero
    /// The copies last reported kept, with why: a copy is reported again only when that changes.
    private var reportedKept: [String: String] = [:]
    private var reportedBlocked: String?
    /// Why versions could not be recorded, as last reported (said once while it lasts).
    private var reportedRecordProblem: String?
    private static let tick: Duration = .seconds(1)
    /// Whether ``start()`` has taken the folder, and who waits for it (``ready()``):
    /// guarded by `readiness`, not `queue`, since the record goes on on `queue` after it.
    private var takenAtStart: (done: Bool, waiting: [CheckedContinuation<Void, Never>]) = (false, [])
    private let readiness = NSLock()

    /// Follows `folder`; `onReport` hears each pass that folded, kept or is waiting on a
    /// copy, and once each time git blocks it.
    public init(folder: SharedFolder, interval: Duration = .seconds(30), onReport: @escaping @Sendable (FoldReport) -> Void) {
        self.folder = folder
        self.interval = interval
        self.onReport = onReport
    }

    /// Records every file's version, folds what can be folded, then follows. ``ready()``
    /// returns once every file is read (the record and the first pass follow at once).
    public func start() {
        start(alreadyRead: [])
    }

    /// ``start()``, taking the files in `alreadyRead` (a store's load of the folder just
    /// before) as what is on disk, rather than reading them again.
    package func start(alreadyRead: [FileRead]) {
        queue.async { [self] in
            // Every file, before anything is folded, as it is now: what is on disk at the
            // start is a version (an edit a moment later descends from it). One the sync
            // tool or an editor is still writing is read again once left alone.
            // Once every file is in hand, ``ready()`` is answered: the record goes on here,
            // before any change told meanwhile, so an edit made from now on is logged after
            // (and from) what was taken.
            let taken = folder.take(nil, alreadyRead: alreadyRead)
            let waiting = readiness.withLock {
                defer { takenAtStart = (true, []) }
                return takenAtStart.waiting
            }
            for waiter in waiting { waiter.resume() }
            do { unrecorded.formUnion(try folder.record(taken, waitingForQuiet: false)) } catch { recordFailed(error) }
            if !unrecorded.isEmpty { scheduleRetry(after: untilQuiet(unrecorded, for: min(folder.options.recordQuietPeriod, folder.options.quietPeriod))) }
        }
        // Next, after ``ready()`` has been answered: the first pass. (The history is
        // compacted as records make it grow, not at every start.)
        queue.async { [self] in
            pass()
            timer = clock.repeating(every: Self.tick, on: queue) { [weak self] in self?.tick() }
        }
    }

    /// Waits until what the folder held at ``start()`` is taken (every file read): the
    /// follower logs it next, before any change it is told of, and the first fold pass
    /// follows; an edit made after this is an edit the history can fold. (It is on disk
    /// in the state folder a moment later; a follower stopped by a crash in between takes
    /// the folder again at its next start.)
    public func ready() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let taken = readiness.withLock {
                if !takenAtStart.done { takenAtStart.waiting.append(done) }
                return takenAtStart.done
            }
            if taken { done.resume() }
        }
    }

    /// Stops; a pass under way finishes.
    public func stop() {
        queue.sync {
            stopped = true
            timer?.cancel()
        }
    }

    /// Notes that `paths` (relative) changed: their versions are recorded (once quiet;
    /// at once when the app itself wrote them, `writtenByApp`: its writes are whole the
    /// moment they land), and a fold pass follows when one is a conflict copy (or has one).
    public func changed(_ paths: [String], writtenByApp: Bool = false) {
        queue.async { [self] in
            guard !stopped else { return }
            if writtenByApp {
                // Read again once left alone (the same bytes log nothing), or when git is done.
                do { unrecorded.formUnion(try folder.record(paths, waitingForQuiet: false)) } catch { recordFailed(error) }
            } else {
                unrecorded.formUnion(paths)
            }
            recordPending()
            if paths.contains(where: { folder.copyNames.original(of: $0) != nil }) { scheduleRetry(after: folder.options.quietPeriod) }
        }
    }

    /// Takes `reads`, files the store's watcher just read (before the store tells of
    /// their change: ``changed(_:writtenByApp:)`` follows), so that recording them does
    /// not read and hash them a second time; a file changed since it was read (its stamp
    /// differs) is read again.
    package func offer(_ reads: [FileRead]) {
        guard !reads.isEmpty else { return }
        queue.async { [self] in
            // Reads of files never told of (ignored ones) are not kept for ever.
            if offered.count > 4_096 { offered.removeAll() }
            for read in reads { offered[read.path] = read }
        }
    }

    /// The offered reads of `paths` that the files still match (one stat each, no read),
    /// taken out of ``offered``.
    private func takeOffered(_ paths: [String]) -> [FileRead] {
        guard !offered.isEmpty else { return [] }
        return paths.compactMap { path in
            guard let read = offered.removeValue(forKey: path) else { return nil }
            // A probe: a file that cannot be looked at now is read (and its problem met) by the record.
            return (try? FileStamp.of(folder.rootFolder[path])) == read.stamp ? read : nil
        }
    }

    /// Runs `work` with the followed folder, its lock held, between fold passes: how an
    /// app settles a conflict by hand while the folder is followed.
    public func withFolder<T>(_ work: (SharedFolder) throws -> T) rethrows -> T {
        try queue.sync { try work(folder) }
    }

    /// Runs one fold pass now and returns its report (for tests and `settle`).
    public func foldNow() -> FoldReport {
        queue.sync {
            recordPending()
            return pass()
        }
    }

    /// Records what is pending and folds what can be folded, again and again as the files
    /// and copies it waits on are left alone for the quiet period, until nothing waits on
    /// one any more (at most ``settleRounds`` passes): returns what all those passes did.
    /// A copy still in ``FoldReport/waiting`` then waits on other devices' history
    /// (``FoldOptions/historyWait``), not on this device. Each pass is reported as the
    /// follower's own are.
    @discardableResult
    public func settle() async -> FoldReport {
        var settled = FoldReport()
        for _ in 0..<Self.settleRounds {
            let (report, wait): (FoldReport, Duration?) = queue.sync {
                recordPending()
                let report = pass()
                guard !stopped, report.blocked == nil else { return (report, nil) }
                // A copy waits until it and its file are quiet; a file until it is.
                let pending = Set(report.waiting + report.waiting.compactMap(folder.copyNames.originalOfAnyCopy)).union(unrecorded)
                let wait = pending.isEmpty ? .zero : folder.untilQuiet(pending, for: folder.options.quietPeriod, all: true)
                return (report, wait > .zero ? wait + .milliseconds(20) : nil)
            }
            settled.folded += report.folded
            settled.rescued += report.rescued
            (settled.kept, settled.waiting, settled.blocked) = (report.kept, report.waiting, report.blocked)
            guard let wait else { break }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in clock.run(after: wait, on: queue) { done.resume() } }
        }
        return settled
    }

    /// The most passes ``settle()`` runs: a copy rewritten again and again is left to the follower.
    static let settleRounds = 10

    /// Records at once what the app's store just wrote (`writes`, the bytes as written):
    /// an edit made right after is recorded after it, from it, however soon it comes —
    /// so a conflict copy made from either version finds its base.
    package func recordWritten(_ writes: [FileRead]) {
        guard !writes.isEmpty else { return }
        queue.async { [self] in
            guard !stopped else { return }
            do { unrecorded.formUnion(try folder.record(writes.map(\.path), waitingForQuiet: false, alreadyRead: writes)) } catch { recordFailed(error) }
        }
    }

    /// When another folder is at the path now (removed and made again), follows it:
    /// every file there is recorded before anything is folded, as at ``start()``.
    private func followTheFolder() {
        do { guard try folder.followThePath() else { return } } catch {
            // The new folder's history cannot be opened: said (once), and tried again next time.
            return recordFailed(error)
        }
        do { unrecorded.formUnion(try folder.record(nil)) } catch { recordFailed(error) }
    }

    private func recordPending() {
        followTheFolder()
        guard !unrecorded.isEmpty else { return }
        let paths = unrecorded.sorted()
        unrecorded = []
        let arrivalBefore = folder.lastArrival
        do {
            unrecorded.formUnion(try folder.record(paths, waitingForQuiet: true, alreadyRead: takeOffered(paths)))
            reportedRecordProblem = nil
        } catch {
            recordFailed(error)
            unrecorded.formUnion(paths)
            // Not only at the next change: the versions are read again once the disk may have room.
            scheduleRetry(after: folder.options.writeRetry)
        }
        if folder.lastArrival != arrivalBefore {
            // A version of this device's may have just been lost to a clash: look once its
            // copy has had time to arrive.
            // (Sooner where no other device keeps a history: no log could name its copy.)
            for delay in [SharedFolder.dropCheckDelayAlone, SharedFolder.dropCheckDelay] {
                clock.run(after: delay, on: queue) { [weak self] in self?.pass() }
            }
        }
        if !unrecorded.isEmpty { scheduleRetry(after: untilQuiet(unrecorded, for: min(folder.options.recordQuietPeriod, folder.options.quietPeriod))) }
    }

    /// Says (once while it lasts) that versions cannot be recorded: without them a later
    /// conflict copy has no base to fold against. Runs on `queue`.
    private func recordFailed(_ error: any Error) {
        let text = "cannot record the folder's versions in \(folder.state)/\(SharedHistory.localFolderName): " + FileProblem.advice(any: error, writing: true, then: "folding goes on")
            + "; until then conflict copies may be kept rather than folded"
        guard reportedRecordProblem != text else { return }
        reportedRecordProblem = text
        var report = FoldReport()
        report.blocked = text
        onReport(report)
    }

    /// Every second: what other devices logged is read; a pass runs when that changed and
    /// copies are waiting, and every `interval` regardless.
    private func tick() {
        guard !stopped else { return }
        sinceFullPass += Self.tick
        let arrived = folder.history.refresh()
        if sinceFullPass >= interval || (arrived && copiesLeft) { pass() }
    }

    @discardableResult
    private func pass() -> FoldReport {
        guard !stopped else { return FoldReport() }
        followTheFolder()
        sinceFullPass = .zero
        let report = folder.fold()
        if let blocked = report.blocked {
            if reportedBlocked != blocked { onReport(report) }
            reportedBlocked = blocked
            scheduleRetry(after: .seconds(1))
            return report
        }
        if reportedBlocked != nil {
            // git is done: what it (and anyone) changed meanwhile is recorded now.
            reportedBlocked = nil
            recordPending()
        }
        copiesLeft = !report.kept.isEmpty || !report.waiting.isEmpty
        var news = report
        news.kept = report.kept.filter { reportedKept[$0.copy] != $0.reason }
        reportedKept = Dictionary(report.kept.map { ($0.copy, $0.reason) }, uniquingKeysWith: { $1 })
        if !(news.folded.isEmpty && news.kept.isEmpty && news.rescued.isEmpty) { onReport(news) }
        if !report.waiting.isEmpty { scheduleRetry(after: untilQuiet(report.waiting, for: folder.options.quietPeriod)) }
        // Said once (above), tried again until the write succeeds: nothing foldable stays once the disk has room.
        if report.kept.contains(where: \.writeFailed) { scheduleRetry(after: folder.options.writeRetry) }
        return report
    }

    /// How long until the first of `paths` will have been left alone for `period` (at
    /// least 50 ms, at most the period): the retry comes when it can succeed, not in steps.
    private func untilQuiet(_ paths: some Collection<String>, for period: Duration) -> Duration {
        max(folder.untilQuiet(paths, for: period, all: false), .milliseconds(50))
    }

    /// Runs a record and a pass after `delay`, unless one is due sooner already.
    private func scheduleRetry(after delay: Duration) {
        // 20 ms over: a file's times lag the clock a little, and a try a moment early would wait once more.
        let due = clock.now + delay + .milliseconds(20)
        guard clock.isDue(due, armed: &retryAt, on: queue, later: { [weak self] deadline in
            // A retry brought forward leaves this one with nothing to do.
            guard let self, retryAt == deadline else { return }
            retryAt = nil
            recordPending()
            pass()
        }) else { return }
        // Only for a delay of nothing or less (never, with the 20 ms): now, in turn.
        queue.async { [weak self] in
            self?.recordPending()
            self?.pass()
        }
    }

    /// The time the follower runs on: its folder's (``FoldOptions/clock``).
    private var clock: any FollowerClock { folder.options.clock }
}
