import FolioSystem
import FolioVersions

/// How ``SharedFolder`` folds.
public struct FoldOptions: Sendable {
    /// The state folder (this device's name, trash, lock); default: the folder's own under
    /// `$XDG_STATE_HOME/folio/` (else `~/.local/state/folio/`).
    public var stateDirectory: String?
    /// Say what would be done, and do nothing (no lock, nothing recorded).
    public var dryRun = false
    /// How long a file and its copy must be left alone before they are recorded or
    /// folded: the sync tool (or an editor) may still be writing them.
    public var quietPeriod: Duration = .seconds(2)
    /// How long a file must be left alone before its version is recorded (never a file
    /// still being written), at most `quietPeriod`: short, so that an edit is in the
    /// history before the sync tool can carry it away (or over it).
    public var recordQuietPeriod: Duration = .milliseconds(500)
    /// How long a conflict copy whose version other devices' logs do not name yet waits
    /// for those logs (a copy and the log line naming it travel separately) before this
    /// device's own past serves as its base, and, when that names none either, it is
    /// reported kept.
    public var historyWait: Duration = .seconds(60)
    /// Whether git is respected and asked: nothing written while it is in the middle of
    /// an operation, its writes taken for arrivals, its merge base a base.
    public var useGit = true
    /// How soon a follower tries a pass again after a write failed (a full disk, a
    /// read-only mount): a copy kept for that folds within this once the disk has room,
    /// without anyone asking, and no sooner, as each try reads every copy again.
    public var writeRetry: Duration = .seconds(5)
    /// The time the fold runs on — when a file has been left alone long enough, when a
    /// follower tries again: the system's; a test's that it moves by hand.
    package var clock: any FollowerClock = SystemFollowerClock()

    /// The defaults.
    public init() {}
}
