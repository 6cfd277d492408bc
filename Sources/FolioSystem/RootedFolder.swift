/// A folder Folio works below — a replica, a shared folder, a state folder — opened
/// once and pinned: every file operation below it goes through its descriptor (see
/// ``RootedPath``), so a folder swapped for a link, or the root itself renamed away and
/// replaced, never sends a read or a write anywhere else.
///
/// The root may itself be a symbolic link (a replica given as `~/Notes` linking to
/// `/data/notes`): it is resolved once, when opened, and the folder it named then is the
/// folder used for as long as this object lives.
public final class RootedFolder: Sendable, CustomStringConvertible {
    /// The path the folder was opened by, for messages.
    public let path: String
    /// The open folder (`O_RDONLY | O_DIRECTORY`), closed when this object goes.
    package let descriptor: Int32
    /// Its device and inode: what identifies the folder across runs.
    public let device: UInt64
    /// Its inode number.
    public let inode: UInt64

    /// Opens the folder at `path` (following a link there: the root's own path is the
    /// user's word). Fails when it is missing or not a folder.
    public convenience init(_ path: String) throws(SystemError) {
        try self.init(descriptor: Syscall.openRootDirectory(path), path: path)
    }

    /// Opens the folder `relative` below `parent` (never through a link, as every
    /// ``RootedPath`` is opened) and pins it as a folder of its own: the operations of a
    /// run of files in one folder then act on its names without resolving it again
    /// (see ``FolderPins``).
    package convenience init(_ relative: RelativePath, below parent: RootedFolder) throws(SystemError) {
        let display = RootedPath(parent, relative).path
        try self.init(
            descriptor: Syscall.openDirectory(beneath: parent.descriptor, relative.components(displaying: display), rootPath: parent.path),
            path: display)
    }

    /// Takes the open folder `fd`, closing it when it is not a folder that can be looked at.
    private init(descriptor fd: Int32, path: String) throws(SystemError) {
        let status: FileStatus
        do { status = try Syscall.status(of: fd, path: path) } catch {
            Syscall.close(fd)
            throw error
        }
        self.path = path
        self.descriptor = fd
        self.device = UInt64(truncatingIfNeeded: status.st_dev)
        self.inode = UInt64(status.st_ino)
    }

    /// Opens the folder at `path`, creating it (and the folders above it) first when
    /// missing, with `mode`: a state folder.
    public static func creating(_ path: String, mode: UInt32 = 0o777) throws(SystemError) -> RootedFolder {
        do { return try RootedFolder(path) } catch where error.code == Syscall.noSuchFile {
            try Syscall.makeDirectories(path, mode: mode)
            return try RootedFolder(path)
        }
    }

    deinit { Syscall.close(descriptor) }

    /// The path `relative` below this folder.
    public subscript(_ relative: String) -> RootedPath { RootedPath(self, RelativePath(relative)) }

    /// The path `relative` below this folder.
    public subscript(_ relative: RelativePath) -> RootedPath { RootedPath(self, relative) }

    /// The folder itself, as a path.
    public var root: RootedPath { RootedPath(self, .root) }

    /// Whether `other` is this very folder (the same device and inode).
    public func isSameFolder(as other: RootedFolder) -> Bool { device == other.device && inode == other.inode }

    /// Its path.
    public var description: String { path }
}
