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
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32

    /// A stamp from its parts (as an archive recorded them).
    package init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, type: EntryType, permissions: UInt32) {
        (self.size, self.modified, self.changed, self.inode, self.type, self.permissions) = (size, modified, changed, inode, type, permissions)
    }

    /// Whether `other` is this very file, unchanged: the same inode, size, modification
    /// time and permissions. (Its change time moves when it is only renamed.)
    package func isSameFile(as other: FileStamp) -> Bool {
        inode == other.inode && size == other.size && modified == other.modified && permissions == other.permissions
    }

    /// The stamp to record for a file Folio just renamed into place, given `ours` (taken
    /// from its temporary file before the rename) and `now` (taken by path after it):
    /// `now` when it is still Folio's very file, else `ours`, which matches nothing on
    /// disk, so the next scan reads the file again — an edit saved right after the rename
    /// is then never taken for what Folio wrote.
    package static func afterCommit(ours: FileStamp, now: FileStamp?) -> FileStamp {
        guard let now, now.isSameFile(as: ours) else { return ours }
        return now
    }

    /// The stamp of `path`, without following a symbolic link.
    package static func of(_ path: RootedPath) throws(SystemError) -> FileStamp {
        FileStamp(try path.linkStatus())
    }

    /// The stamp of `name` in the open folder `directory`, without following a link.
    package static func of(_ name: String, in directory: Int32, displayPath: @autoclosure () -> String) throws(SystemError) -> FileStamp {
        FileStamp(try Syscall.linkStatus(name, in: directory, displayPath: displayPath()))
    }

    /// Whether it is a directory.
    public var isDirectory: Bool { type == .directory }
    /// Whether it is a regular file.
    public var isRegularFile: Bool { type == .regular }
    /// Whether it is a symbolic link.
    public var isSymbolicLink: Bool { type == .symbolicLink }
    /// Whether anyone may execute it.
    public var isExecutable: Bool { permissions & 0o111 != 0 }

    /// Its permissions with the executable bit as `executable` says: set, it goes to
    /// each class that may read (as `chmod +x` under a umask would); cleared, to none.
    /// Everything else — a private 0600 stays private — is kept.
    public func permissions(executable: Bool) -> UInt32 {
        guard executable else { return permissions & ~0o111 }
        return isExecutable ? permissions : permissions | ((permissions & 0o444) >> 2)
    }
}
