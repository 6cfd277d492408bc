import Dispatch

/// Makes chosen system calls fail, so that tests can drive the error paths.
package struct FaultInjection: Sendable {
    /// Returns the errno to fail with, or `nil` to let the call run.
    package var failure: @Sendable (SystemError.Operation, String) -> Int32?

    /// Runs just before each system call (after any check that precedes it): a test can
    /// save an edit there, in the window between Folio's check and its rename.
    package var beforeCall: (@Sendable (SystemError.Operation, String) -> Void)?

    /// Resolves paths below a root one component at a time even where the kernel has
    /// `openat2`: a test can then act between two components' opens (`beforeCall`).
    package var walksComponents: Bool

    package init(
        failure: @escaping @Sendable (SystemError.Operation, String) -> Int32? = { _, _ in nil },
        beforeCall: (@Sendable (SystemError.Operation, String) -> Void)? = nil,
        walksComponents: Bool = false
    ) {
        self.failure = failure
        self.beforeCall = beforeCall
        self.walksComponents = walksComponents
    }

    /// The plan in force for the current task, if any.
    @TaskLocal package static var current: FaultInjection?

    /// The plan in force: the current task's, else the one the environment asks for.
    @inline(__always)
    static var inForce: FaultInjection? { current ?? environment }

    /// The name of the environment variable that slows the process's system calls down
    /// (see ``environment``).
    package static let delayVariable = "FOLIO_TEST_DELAY_US"

    /// A plan for race harnesses that run the built `folio` as a real process: with
    /// `FOLIO_TEST_DELAY_US=N` set, every rename (on any thread) is preceded by a pause
    /// of up to N microseconds, and so is the first look at its target after it: the
    /// windows between a check and the rename it guards, and between a rename and the
    /// look that follows, are then wide enough for another process to land in, while
    /// the scans and reads around them keep their pace. Nil (no plan, and no cost but
    /// this look) when the variable is unset, empty or not a number from 1 to 1,000,000.
    package static let environment: FaultInjection? = {
        guard let text = Syscall.environment(nonEmpty: delayVariable), let most = UInt32(text), (1...1_000_000).contains(most) else { return nil }
        let renamed = RenamedTargets()
        return FaultInjection(beforeCall: { operation, path in
            if operation == .rename {
                renamed.note(path)
            } else if !renamed.take(path) {
                return
            }
            Syscall.pause(microseconds: UInt32.random(in: 0...most))
        })
    }()
}

/// The targets of renames whose first look after has not come yet (the test delay's).
private final class RenamedTargets: Sendable {
    // Safe: `paths` is read and written only on `queue`, a serial queue.
    nonisolated(unsafe) private var paths: Set<String> = []
    private let queue = DispatchQueue(label: "folio.test-delay")

    func note(_ path: String) { queue.sync { _ = paths.insert(path) } }

    /// Whether `path` was renamed onto and not looked at since; it no longer counts.
    func take(_ path: String) -> Bool { queue.sync { paths.remove(path) != nil } }
}
