import FolioFormat

/// What the disk holds now, as the watcher, the sync engine or a re-read found it:
/// the state follows; nothing is written.
public enum DiskChange: Sendable {
    /// A file's bytes as they are now on disk (new or changed).
    case fileChanged(path: String, bytes: [UInt8])
    /// A file that is gone from disk.
    case fileRemoved(path: String)
    /// A file that moved: gone from `from`, at `to` with the same bytes it had.
    case fileMoved(from: String, to: String, bytes: [UInt8])
    /// `folio.yaml` as it is now on disk, or nil when it is gone.
    case settingsFileChanged(bytes: [UInt8]?)
}
