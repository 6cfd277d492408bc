/// How to watch a folder.
public enum WatchBackend: Sendable, Hashable {
    /// The platform's notifications (inotify on Linux, FSEvents on macOS, a vnode
    /// source per folder on iOS and the other Apple platforms), falling back to polling
    /// for what cannot be watched.
    case native
    /// A `stat` pass over the folder every `interval`, for network file systems.
    case polling(interval: Duration)
}
