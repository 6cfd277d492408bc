/// How ``GitSync`` syncs a work tree with its remote.
public struct GitSyncOptions: Sendable {
    /// The state folder (where a pass notes the merge or rebase it has under way, so that
    /// one a killed pass left is undone by the next); default: the folder's own under
    /// `$XDG_STATE_HOME/folio/`.
    public var stateDirectory: String?
    /// The name a conflict copy carries for this device (`soup.sync-conflict-…-NAME.md`);
    /// default: the host's name; in lower case, letters, digits and hyphens only.
    public var deviceName: String?
    /// How many times a push the remote refused because it moved meanwhile is tried
    /// again, each after fetching and bringing its new commits in.
    public var pushAttempts = 4
    /// More for git's environment (a test's own `HOME`, a `GIT_SSH_COMMAND`).
    package var gitEnvironment: [String: String] = [:]

    /// The defaults.
    public init() {}
}
