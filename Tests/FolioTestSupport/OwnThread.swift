import Foundation
import Testing

/// Runs each test case on a thread of its own rather than on Swift's cooperative pool.
///
/// For tests that time what they wait for (a watcher's batch, a line a program prints):
/// the pool is as wide as the machine has cores (two here), and in a full run hundreds
/// of tests share it — the seeded property tests among them compute for seconds between
/// suspensions. A test polling for output on that pool saw it up to 11.9 s after it came
/// (`LongWaits`' "seen … after it came"), though the program had been quick. On a thread
/// of its own, the test's steps run when the kernel next schedules that thread, which
/// is what a user's program waiting on Folio would get.
///
/// Actor-isolated code (a `@MainActor` suite) still runs on its actor; only nonisolated
/// async code prefers the test's thread (`withTaskExecutorPreference`).
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Each case of each test, not the suite as a whole: cases run side by side.
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15, iOS 18, *) {
            let thread = ThreadExecutor(name: "test: \(test.name)")
            defer { thread.finish() }
            try await withTaskExecutorPreference(thread) { try await function() }
        } else {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case runs on a thread of its own (``OwnThreadTrait``).
    public static var onAThreadOfItsOwn: Self { OwnThreadTrait() }
}

/// A task executor that is one thread, running the jobs given to it in turn until
/// ``finish()``.
///
/// `@unchecked Sendable` is safe: `jobs` and `finished` are touched only with
/// `condition` held.
@available(macOS 15, iOS 18, *)
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.stackSize = 1 << 22
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let late = condition.withLock {
            guard !finished else { return true }
            jobs.append(job)
            condition.signal()
            return false
        }
        // A job that comes after the test ended (nothing structured should) still runs.
        if late { Thread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }.start() }
    }

    /// Lets the thread end once the jobs given so far have run.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    private func runJobs() {
        while true {
            let next: UnownedJob? = condition.withLock {
                while jobs.isEmpty && !finished { condition.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
