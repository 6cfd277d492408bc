#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Folio needs Glibc, Musl or Darwin")
#endif

/// What `lstat` says about a file that changes when its content or identity does:
/// size, modification and change times in nanoseconds, inode, and type. Two equal
/// stamps mean "probably unchanged"; a different stamp means "read it again".
public struct FileStamp: Sendable, Hashable {
    /// The size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since the epoch.
    public var modified: Int64
    /// The status-change time, in nanoseconds since the epoch.
    public var changed: Int64
    /// The inode number.
    public var inode: UInt64
    /// Whether it is a regular file, a directory, a link or something else.
    package var type: EntryType

    /// The stamp of `path`, without following a symbolic link.
    package static func of(_ path: String) throws(SystemError) -> FileStamp {
        let status = try Syscall.linkStatus(path)
        #if canImport(Darwin)
        let (mtime, ctime) = (status.st_mtimespec, status.st_ctimespec)
        #else
        let (mtime, ctime) = (status.st_mtim, status.st_ctim)
        #endif
        return FileStamp(
            size: Int64(status.st_size),
            modified: Int64(mtime.tv_sec) * 1_000_000_000 + Int64(mtime.tv_nsec),
            changed: Int64(ctime.tv_sec) * 1_000_000_000 + Int64(ctime.tv_nsec),
            inode: UInt64(status.st_ino),
            type: Syscall.entryType(of: status))
    }

    /// Whether it is a directory.
    public var isDirectory: Bool { type == .directory }
    /// Whether it is a regular file.
    public var isRegularFile: Bool { type == .regular }
}
