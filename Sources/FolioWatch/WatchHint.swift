/// What a platform watcher reports: hints, not facts. A hint marks a path (relative
/// to the watched folder, `/`-separated; a file or a folder) as worth reading again,
/// or says that events were lost and the whole folder must be scanned. The store
/// decides what changed by reading the disk.
public enum WatchHint: Sendable, Hashable {
    /// Something at this path (a file, or anything under this folder) may have changed.
    case changed(String)
    /// Events were lost (a kernel queue overflowed, a subtree could not be watched at
    /// first): read everything again.
    case rescan(reason: String)
    /// Something the user should know and can act on, such as a watch limit reached.
    case warning(String)
    /// This file is being written in place and is still open for writing (inotify's
    /// `IN_MODIFY` before `IN_CLOSE_WRITE`): read it once it is closed, not half-written.
    case writing(String)
    /// This file was closed after writing (`IN_CLOSE_WRITE`): it may be read now.
    case closed(String)
}
