import Dispatch
import FolioSystem

/// `folio watch DIR --git-sync`, and an app's git sync that goes on by itself: a
/// ``GitSync`` pass once the edits it is told of have settled (``commitAfter`` after the
/// last), and one every ``fetchEvery`` regardless, so that others' commits come in.
/// While the remote cannot be reached, the passes that only fetch come less often (the
/// interval doubles, up to five minutes) and it is said once; while the user's own git
/// operation is under way nothing is done, said once; the next pass that gets through
/// says so. Passes run one at a time, on its own queue, on the clock its options give.
///
/// `@unchecked Sendable` is safe: every stored property but the constants is read and
/// written only on `queue`, a serial queue; `onOutcome` is `@Sendable`.
public final class GitSyncFollower: @unchecked Sendable {
    /// How long after the last edit it is told of a pass runs.
    public let commitAfter: Duration
    /// How often a pass runs regardless (others' commits fetched and brought in).
    public let fetchEvery: Duration
    private let sync: GitSync
    private let clock: any FollowerClock
    private let onOutcome: @Sendable (Result<GitSyncReport, GitSyncError>) -> Void
    private let queue = DispatchQueue(label: "folio.git-sync")
    private var timer: FollowerTimer?
    private var armed: ContinuousClock.Instant?
    private var lastEdit: ContinuousClock.Instant?
    private var stopped = false
    /// The stop last said (offline, git busy): said again only when it changes.
    private var lastProblem: String?
    /// While the remote cannot be reached: when the next pass that only fetches may run.
    private var quietUntil: ContinuousClock.Instant?
    private var backoff: Duration

    /// Follows `sync`'s work tree; `onOutcome` hears each pass that did something, and
    /// each stop once (then once more when it is over).
    public convenience init(
        _ sync: GitSync, commitAfter: Duration = .seconds(2), fetchEvery: Duration = .seconds(60),
        onOutcome: @escaping @Sendable (Result<GitSyncReport, GitSyncError>) -> Void
    ) {
        self.init(sync, commitAfter: commitAfter, fetchEvery: fetchEvery, clock: SystemFollowerClock(), onOutcome: onOutcome)
    }

    /// ``init(_:commitAfter:fetchEvery:onOutcome:)`` on `clock` (a test's, moved by hand).
    package init(
        _ sync: GitSync, commitAfter: Duration, fetchEvery: Duration, clock: any FollowerClock,
        onOutcome: @escaping @Sendable (Result<GitSyncReport, GitSyncError>) -> Void
    ) {
        self.sync = sync
        self.commitAfter = commitAfter
        self.fetchEvery = fetchEvery
        self.clock = clock
        self.onOutcome = onOutcome
        backoff = fetchEvery
    }

    /// Runs a pass now (what changed while nothing watched is committed), then follows.
    public func start() {
        queue.async { [self] in
            guard !stopped else { return }
            pass()
            timer = clock.repeating(every: fetchEvery, on: queue) { [weak self] in self?.tick() }
        }
    }

    /// Stops; a pass under way finishes first (git is never left mid-step).
    public func stop() {
        queue.sync {
            stopped = true
            timer?.cancel()
        }
    }

    /// Notes that the work tree changed: a pass runs once it has been left alone for
    /// ``commitAfter``.
    public func changed() {
        queue.async { [self] in
            guard !stopped else { return }
            lastEdit = clock.now
            scheduleCommit()
        }
    }

    /// Runs a pass now, after one under way, and returns its outcome (for tests and an
    /// app that must sync at once).
    public func syncNow() -> Result<GitSyncReport, GitSyncError> {
        queue.sync { pass() }
    }

    /// Waits until what it was told before is taken in (the start's pass, the edits
    /// noted): for tests that then move its clock by hand.
    package func caughtUp() { queue.sync {} }

    /// Arms the pass for `commitAfter` after the last edit. Runs on `queue`.
    private func scheduleCommit() {
        guard let lastEdit else { return }
        // Armed for an earlier edit: that timer looks again when it fires.
        guard armed == nil else { return }
        let due = lastEdit + commitAfter
        if clock.isDue(due, armed: &armed, on: queue, later: { [weak self] deadline in self?.commitDue(deadline) }) {
            self.lastEdit = nil
            pass()
        }
    }

    /// The timer armed for `deadline` fired: a pass if the edits have settled, else later.
    private func commitDue(_ deadline: ContinuousClock.Instant) {
        guard !stopped, armed == deadline else { return }
        armed = nil
        guard let lastEdit else { return }
        if clock.now < lastEdit + commitAfter { return scheduleCommit() }
        self.lastEdit = nil
        pass()
    }

    /// Every ``fetchEvery``: a pass, unless the remote was found unreachable a moment ago.
    private func tick() {
        guard !stopped else { return }
        if let quietUntil, clock.now < quietUntil { return }
        pass()
    }

    /// One pass, its outcome said as the follower says them. Runs on `queue`.
    @discardableResult
    private func pass() -> Result<GitSyncReport, GitSyncError> {
        let outcome = Result { () throws(GitSyncError) in try sync.run() }
        let problem: GitSyncError?
        switch outcome {
        case .success(let report): problem = report.stopped
        case .failure(let error): problem = error
        }
        if problem?.kind == .offline {
            quietUntil = clock.now + backoff
            backoff = min(backoff * 2, .seconds(300))
        } else {
            (quietUntil, backoff) = (nil, fetchEvery)
        }
        let said = problem.map { "\($0.kind) \($0.message)" }
        let didSomething: Bool
        if case .success(let report) = outcome { didSomething = report.events.contains { if case .inStep = $0 { false } else { true } } } else { didSomething = false }
        // A stop is said once while it lasts (a pass that committed while the remote stays
        // unreachable tells what it did, not the stop again); its end is said by the next
        // pass's report.
        if said != lastProblem {
            onOutcome(outcome)
        } else if didSomething, case .success(var report) = outcome {
            report.stopped = nil
            onOutcome(.success(report))
        }
        lastProblem = said
        return outcome
    }
}
