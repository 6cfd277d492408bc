/// One thing a ``GitSync`` pass did, or found for the user to do.
public enum GitSyncEvent: Sendable, Hashable {
    /// The edits committed, by path (relative to the work tree), as `commit`.
    case committed(commit: String, paths: [String])
    /// A file not committed, and why (it holds conflict markers: settle them first).
    case leftOut(path: String, reason: String)
    /// The remote branch's commits fast-forwarded into this branch.
    case fastForwarded(to: String, paths: [String])
    /// The remote branch's commits merged with this branch's, as the merge commit `commit`
    /// (or rebased onto, with `rebased`); `paths` both sides changed, merged by Folio.
    case integrated(commit: String, rebased: Bool, paths: [String])
    /// A real clash: `path` keeps the remote's version (merged with every change that
    /// did not clash), and this device's is committed beside it as `copy`.
    case clash(path: String, copy: String)
    /// Commits pushed to the remote branch (`upstream`, such as `origin/main`).
    case pushed(upstream: String, commits: Int)
    /// A push refused because the remote moved meanwhile: fetched and brought in again.
    case remoteMoved
    /// Nothing to commit, bring in or push: in step with the remote.
    case inStep(upstream: String)
}
