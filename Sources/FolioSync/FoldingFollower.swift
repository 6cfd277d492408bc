import FolioFolder
import Dispatch
import FolioFormat
import FolioSystem

/// Folds a followed folder's conflict copies as they appear, for `folio watch DIR` and
/// ``SharedFolder``-backed apps: told which paths changed (by a watcher), it records
/// their versions in the history and, once the sync tool has left a copy and its file
/// alone for the quiet period, folds it; copies not yet quiet are tried again shortly.
/// Every fold pass also runs every `interval`, for copies no watcher reported.
///
/// `@unchecked Sendable` is safe: `folder`, `timer`, `retry` and `stopped` are touched
/// only on `queue`, a serial queue; `onReport` is `@Sendable`.
public final class FoldingFollower: @unchecked Sendable {
    private let folder: SharedFolder
    private let queue = DispatchQueue(label: "folio.fold")
    private let interval: Duration
    private let onReport: @Sendable (FoldReport) -> Void
    private var timer: (any DispatchSourceTimer)?
    private var retryArmed = false
    private var stopped = false
    /// The copies last reported kept, with why: a copy is reported again only when that changes.
    private var reportedKept: [String: String] = [:]

    /// Follows `folder`; `onReport` hears each pass that folded, kept or is waiting on a copy.
    public init(folder: SharedFolder, interval: Duration = .seconds(30), onReport: @escaping @Sendable (FoldReport) -> Void) {
        self.folder = folder
        self.interval = interval
        self.onReport = onReport
    }

    /// Records every file's version, folds what can be folded, then folds periodically.
    public func start() {
        queue.async { [self] in
            try? folder.record()
            try? folder.pruneHistory()
            pass()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let seconds = interval.components.seconds
            timer.schedule(deadline: .now() + .seconds(Int(seconds)), repeating: .seconds(Int(max(1, seconds))))
            timer.setEventHandler { [weak self] in self?.pass() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops; a pass under way finishes.
    public func stop() {
        queue.sync {
            stopped = true
            timer?.cancel()
        }
    }

    /// Notes that `paths` (relative) changed: their versions are recorded, and a fold
    /// pass follows when one is a conflict copy (or has one).
    public func changed(_ paths: [String]) {
        queue.async { [self] in
            guard !stopped else { return }
            try? folder.record(paths)
            if paths.contains(where: { ConflictCopies.original(of: $0) != nil }) { scheduleRetry(after: folder.options.quietPeriod) }
        }
    }

    /// Runs one fold pass now and returns its report (for tests and `settle`).
    public func foldNow() -> FoldReport {
        queue.sync { pass() }
    }

    @discardableResult
    private func pass() -> FoldReport {
        guard !stopped else { return FoldReport() }
        let report = folder.fold()
        var news = report
        news.kept = report.kept.filter { reportedKept[$0.copy] != $0.reason }
        reportedKept = Dictionary(report.kept.map { ($0.copy, $0.reason) }, uniquingKeysWith: { $1 })
        if !(news.folded.isEmpty && news.kept.isEmpty && news.rescued.isEmpty) { onReport(news) }
        if !report.waiting.isEmpty { scheduleRetry(after: .milliseconds(500)) }
        return report
    }

    private func scheduleRetry(after delay: Duration) {
        guard !retryArmed else { return }
        retryArmed = true
        let milliseconds = Int(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
        queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds + 50)) { [weak self] in
            self?.retryArmed = false
            self?.pass()
        }
    }
}
