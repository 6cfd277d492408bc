import FolioSystem
extension SyncError {
    /// The error for a state folder whose lock could not be had.
    package init(lockFailure: StateLock.Failure) {
        if case .system = lockFailure { self.init(.stateIO, lockFailure.description) } else { self.init(.stateInUse, lockFailure.description) }
    }
}
