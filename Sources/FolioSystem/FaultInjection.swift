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
}
