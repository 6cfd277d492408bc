extension FileStamp {
    /// The stamp `lstat`/`fstat` gave (the time fields are named differently on Darwin).
    package init(_ status: FileStatus) {
        #if canImport(Darwin)
        let (mtime, ctime) = (status.st_mtimespec, status.st_ctimespec)
        #else
        let (mtime, ctime) = (status.st_mtim, status.st_ctim)
        #endif
        self.init(
            size: Int64(status.st_size),
            modified: Int64(mtime.tv_sec) * 1_000_000_000 + Int64(mtime.tv_nsec),
            changed: Int64(ctime.tv_sec) * 1_000_000_000 + Int64(ctime.tv_nsec),
            inode: UInt64(status.st_ino),
            type: Syscall.entryType(of: status),
            permissions: UInt32(status.st_mode) & 0o7777)
    }
}
