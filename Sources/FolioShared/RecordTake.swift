import FolioSystem
import FolioVersions

/// What a record of a folder took from disk before logging it (``SharedFolder/take(_:alreadyRead:)``):
/// the paths, what each held when read (or nothing, when each is read as it is
/// recorded: a few paths), and when. A follower takes the whole folder at its start, says it is ready, then logs it:
/// nothing from the folder is read between, so an edit made meanwhile waits its turn.
package struct RecordTake: Sendable {
    /// The paths to record, relative.
    package let paths: [String]
    /// What each held, in the order of ``paths``; empty when each is read as it is recorded.
    package let reads: [Result<(bytes: [UInt8], stamp: FileStamp), SystemError>]
    /// When they were read (ns since the epoch): the time they are logged at.
    package let time: Int64
    /// Git was in the middle of an operation: nothing was read, and every path is left to
    /// record once it is done.
    package let blocked: Bool
}
