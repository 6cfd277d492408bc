/// Why a ``GitSync`` pass stopped, with what to do. Whatever was committed before it
/// stopped stays committed: the next pass goes on from there.
public struct GitSyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of stop.
    public enum Kind: Sendable, Hashable {
        /// Not in a git work tree, on no branch, or with no remote branch to sync with.
        case notSyncable
        /// The user's own git operation (a merge, a rebase, …) is under way: nothing was changed.
        case gitBusy
        /// The remote could not be reached: the edits are committed here, pushed next time.
        case offline
        /// The remote refused: authentication, or a push it does not take (a protected branch).
        case refused
        /// git itself failed (a full disk, a damaged repository, no identity to commit as).
        case gitFailed
    }

    /// What kind of stop.
    public var kind: Kind
    /// What happened, and what to do.
    public var message: String

    /// A stop of `kind`.
    public init(_ kind: Kind, _ message: String) { (self.kind, self.message) = (kind, message) }

    /// The message.
    public var description: String { message }
}
