import FolioSystem

/// How a ``FolderWatcher`` follows the disk.
public struct WatchOptions: Sendable {
    /// How changes are noticed.
    public var backend: WatchBackend = .native
    /// How long no hint must come before a batch is read (a save is often several steps).
    public var quietPeriod: Duration = .milliseconds(50)
    /// The longest a batch waits after its first hint, however busy the folder is.
    public var longestDelay: Duration = .seconds(1)
    /// The longest a file still open for writing (written in place, in chunks) is
    /// waited on before it is read anyway: a writer that never closes, a log, is still
    /// followed.
    public var longestWrite: Duration = .seconds(2)
    /// How often everything is read again, to catch whatever notifications missed
    /// (nil: never).
    public var rescanInterval: Duration? = .seconds(3600)
    /// How long the folder must be quiet after a batch before the store drops what it
    /// still keeps of the files' earlier versions (``Store/tidy()``), so that a watcher
    /// running for weeks holds what the folder needs, not what its edits left (nil: never).
    public var tidyAfter: Duration? = .seconds(2)
    /// The time the watcher runs on: the system's; a test's that it moves by hand.
    package var clock: any FollowerClock = SystemFollowerClock()

    /// The defaults: native notifications, 50 ms quiet period, hourly rescan, tidying
    /// after 2 s of quiet.
    public init() {}
}
