/// Reading whole files: only regular files, never through a link below a root.
public enum FileReading {
    /// The bytes of the regular file at `path`.
    public static func contents(of path: RootedPath) throws(SystemError) -> [UInt8] {
        let display = path.path
        return try path.withParent { (directory, name) throws(SystemError) in try contents(ofFile: name, in: directory, displayPath: display) }
    }

    /// The bytes of the regular file `name` in the open folder `directory`: one open,
    /// one `fstat` (which sizes the buffer), the reads, one close.
    static func contents(ofFile name: String, in directory: Int32, displayPath: String) throws(SystemError) -> [UInt8] {
        let (fd, status) = try Syscall.openRegularFileAndStatus(name, in: directory, flags: Syscall.OpenPurpose.reading.flags, displayPath: displayPath)
        defer { Syscall.close(fd) }
        return try read(fd, path: displayPath, size: Int(status.st_size))
    }

    /// The bytes of each regular file at `paths` (relative to `folder`), in order, or why
    /// it could not be read. Each folder is opened once for the run of paths in it (paths
    /// from a walk come folder by folder, see ``FolderPins``): a file costs its open,
    /// `fstat`, reads and close.
    package static func contents(of paths: some Collection<String>, in folder: RootedFolder) -> [Result<[UInt8], SystemError>] {
        var pins = FolderPins()
        return paths.map { path in Result { () throws(SystemError) in try contents(of: pins.pinned(folder[path])) } }
    }

    /// ``contentsAndStamp(of:)`` of each of `paths` (relative to `folder`), in order, or
    /// why it could not be read; each folder opened once for the run of paths in it, as
    /// ``contents(of:in:)`` does.
    package static func contentsAndStamps(of paths: some Collection<String>, in folder: RootedFolder) -> [Result<(bytes: [UInt8], stamp: FileStamp), SystemError>] {
        var pins = FolderPins()
        return paths.map { path in Result { () throws(SystemError) in try contentsAndStamp(of: pins.pinned(folder[path])) } }
    }

    /// The bytes of the regular file at `path` and its stamp once read: a caller that
    /// knows the stamp from before can tell whether the file changed while it was read.
    package static func contentsAndStamp(of path: RootedPath) throws(SystemError) -> (bytes: [UInt8], stamp: FileStamp) {
        let (bytes, _, stamp) = try contentsAndStamps(of: path)
        return (bytes, stamp)
    }

    /// ``contentsAndStamp(of:)`` with the stamp the file had once opened, before the
    /// reads: the two differ if it changed while it was read.
    package static func contentsAndStamps(of path: RootedPath) throws(SystemError) -> (bytes: [UInt8], opened: FileStamp, read: FileStamp) {
        let display = path.path
        return try path.withParent { (directory, name) throws(SystemError) in
            let (fd, status) = try Syscall.openRegularFileAndStatus(name, in: directory, flags: Syscall.OpenPurpose.reading.flags, displayPath: display)
            defer { Syscall.close(fd) }
            let (bytes, after) = try contentsAndStatus(ofOpen: fd, path: display, size: Int(status.st_size))
            return (bytes, FileStamp(status), FileStamp(after))
        }
    }

    /// The bytes of the regular file at `path`, how many names it has (hard links) and
    /// its stamp once read, or nil when there is no such file: for the watcher, which
    /// must read a file's other names when it changes or goes, and hands what it read on
    /// (with the stamp that tells whether the file is still as read) to the fold.
    package static func contentsAndNames(ifPresent path: RootedPath) throws(SystemError) -> (bytes: [UInt8], names: Int, stamp: FileStamp)? {
        let fd: Int32
        do { fd = try path.open(for: .reading) } catch where error.code == Syscall.noSuchFile { return nil }
        defer { Syscall.close(fd) }
        let (bytes, status) = try contentsAndStatus(ofOpen: fd, path: path.path)
        return (bytes, Int(status.st_nlink), FileStamp(status))
    }

    /// How many names (hard links) the regular file at `path` has, or nil when what is
    /// there is not a regular file.
    package static func names(ofFileAt path: RootedPath) throws(SystemError) -> Int? {
        let status = try path.linkStatus()
        return FileStamp(status).isRegularFile ? Int(status.st_nlink) : nil
    }

    /// The bytes of a file the user named on the command line (`folio yaml FILE`): outside
    /// any folder Folio keeps, so a link there is followed, as `cat` would; still only a
    /// regular file is read (a FIFO never hangs the command).
    public static func contents(ofFileNamedByUser path: String) throws(SystemError) -> [UInt8] {
        try contents(of: AtomicFile.rooted(fileNamedByUser: path))
    }

    /// The bytes of the open file `fd` from where it stands, and its stamp after.
    package static func contents(ofOpen fd: Int32, path: String) throws(SystemError) -> (bytes: [UInt8], stamp: FileStamp) {
        let (bytes, status) = try contentsAndStatus(ofOpen: fd, path: path)
        return (bytes, FileStamp(status))
    }

    /// The bytes of the open file `fd` from where it stands, and its status after (one
    /// `fstat` serves the stamp and the link count).
    private static func contentsAndStatus(ofOpen fd: Int32, path: String) throws(SystemError) -> (bytes: [UInt8], status: FileStatus) {
        try contentsAndStatus(ofOpen: fd, path: path, size: Int(try Syscall.status(of: fd, path: path).st_size))
    }

    /// The bytes of the open file `fd` from where it stands, `size` the size it was
    /// measured at, and its status after. The reads stop at `size`: the status after
    /// says whether the file grew meanwhile, and only then is it read on to its end (and
    /// looked at again). A scan's read that would only have found the end was one call
    /// in five for each file read.
    private static func contentsAndStatus(ofOpen fd: Int32, path: String, size: Int) throws(SystemError) -> (bytes: [UInt8], status: FileStatus) {
        var bytes = try read(fd, path: path, size: size, stoppingAtSize: true)
        var status = try Syscall.status(of: fd, path: path)
        if Int(status.st_size) > bytes.count {
            try readOn(fd, path: path, into: &bytes)
            status = try Syscall.status(of: fd, path: path)
        }
        return (bytes, status)
    }

    /// The bytes of the open file `fd` from where it stands to its end, `size` the size
    /// it was measured at (a file grown since is read on to its end). With
    /// `stoppingAtSize`, the reads stop once `size` bytes are in, without the read that
    /// finds the end: for a caller that looks at the file's size afterwards. An empty
    /// file is always read to its end (a file system may size what it makes up as 0).
    private static func read(_ fd: Int32, path: String, size: Int, stoppingAtSize: Bool = false) throws(SystemError) -> [UInt8] {
        let stops = stoppingAtSize && size > 0
        // Read straight into uninitialized memory: zero-filling first was a second pass
        // over every byte of a large file (an archive of 100,000 lines).
        var failure: SystemError?
        var bytes = [UInt8](unsafeUninitializedCapacity: max(size, 0) + (stops ? 0 : 1)) { buffer, initialized in
            initialized = 0
            while initialized < buffer.count {
                do throws(SystemError) {
                    let got = try Syscall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...]), path: path)
                    if got == 0 { return }
                    initialized += got
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        // The buffer filled up: the file grew since it was measured; read on to its end.
        if !stops && bytes.count > max(size, 0) { try readOn(fd, path: path, into: &bytes) }
        return bytes
    }

    /// Reads the open file `fd` on to its end, appending to `bytes`.
    private static func readOn(_ fd: Int32, path: String, into bytes: inout [UInt8]) throws(SystemError) {
        var count = bytes.count
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let result = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try Syscall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]), path: path)
                }
            }
            let got = try result.get()
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
    }
}
