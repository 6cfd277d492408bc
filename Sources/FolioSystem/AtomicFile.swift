/// Writing and removing files so that a crash never leaves a half-written file.
public enum AtomicFile {
    /// Writes `bytes` to `path`: a temporary file in the same folder, flushed, renamed
    /// over the target, then the folder flushed. Missing parent folders are created.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let folder = parent(of: path)
        try makeDirectories(folder)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var attempt = 0
        while true {
            let temporary = folder + "/." + name + ".folio-\(UInt32.random(in: 0...UInt32.max))-\(attempt).tmp"
            let fd: Int32
            do { fd = try Syscall.createExclusive(temporary) } catch where error.code == Syscall.alreadyExists && attempt < 8 {
                attempt += 1
                continue
            }
            do {
                try Syscall.writeAll(fd, bytes, path: temporary)
                try Syscall.sync(fd, path: temporary)
                Syscall.close(fd)
                try Syscall.rename(temporary, to: path)
            } catch {
                Syscall.close(fd)
                try? Syscall.unlink(temporary)
                throw error
            }
            try Syscall.syncDirectory(folder)
            return
        }
    }

    /// Removes `path` and flushes its folder.
    public static func remove(_ path: String) throws(SystemError) {
        try Syscall.unlink(path)
        try Syscall.syncDirectory(parent(of: path))
    }

    /// The bytes at `path`, or nil when there is no such file.
    public static func contentsIfPresent(_ path: String) throws(SystemError) -> [UInt8]? {
        do { return try FileReading.contents(of: path) } catch where error.code == Syscall.noSuchFile {
            return nil
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func makeDirectories(_ path: String) throws(SystemError) {
        if (try? Syscall.linkStatus(path)) != nil { return }
        let up = parent(of: path)
        if up != path && up != "." && up != "/" { try makeDirectories(up) }
        try Syscall.makeDirectory(path)
    }
}
