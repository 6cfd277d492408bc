// inotify, Linux's file-change notification, wrapped like every other system call:
// EINTR retried, failures returned as `SystemError`, and the same fault-injection hook.
#if canImport(Glibc)
import Glibc

/// The inotify calls the Linux watcher makes.
package enum Inotify {
    /// The events a directory watch asks for: anything that can change which files
    /// exist or what they hold.
    package static let directoryMask: UInt32 = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)
    package static let isDirectory = UInt32(IN_ISDIR)
    package static let queueOverflow = UInt32(IN_Q_OVERFLOW)
    package static let ignored = UInt32(IN_IGNORED)
    package static let movedFrom = UInt32(IN_MOVED_FROM)
    package static let movedTo = UInt32(IN_MOVED_TO)
    package static let created = UInt32(IN_CREATE)
    package static let deleted = UInt32(IN_DELETE)
    package static let modified = UInt32(IN_MODIFY)
    package static let closedAfterWriting = UInt32(IN_CLOSE_WRITE)
    package static let selfGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
    /// `ENOSPC` from `inotify_add_watch`: the user's watch limit is reached.
    package static let watchLimitReached = ENOSPC
    /// `EMFILE` from `inotify_init1`: the user's instances (`fs.inotify.max_user_instances`) are used up.
    package static let instanceLimitReached = EMFILE
    /// `EAGAIN`: nothing more to read.
    package static let wouldBlock = EAGAIN

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)` (both flags import as `Int`).
    package static func initialize() throws(SystemError) -> Int32 {
        try retrying(.watch, "inotify_init1") { inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)) }
    }

    /// `inotify_add_watch(fd, path, mask)`: the watch descriptor.
    package static func addWatch(_ fd: Int32, _ path: String, mask: UInt32 = directoryMask) throws(SystemError) -> Int32 {
        try retrying(.watch, path) { inotify_add_watch(fd, path, mask) }
    }

    /// `inotify_add_watch` on the folder open as `folder`: through its `/proc/self/fd`
    /// entry, which names that very folder (the kernel follows that one link, to the
    /// open file, and nothing else). Where `/proc` is not mounted, by its path, no link
    /// followed at its end — a link that replaced a folder above it then leads the
    /// watch astray, which `/proc` is there to prevent.
    package static func addWatch(_ fd: Int32, openFolder folder: RootedFolder) throws(SystemError) -> Int32 {
        guard procIsMounted else { return try addWatch(fd, folder.path) }
        return try retrying(.watch, folder.path) {
            inotify_add_watch(fd, "/proc/self/fd/\(folder.descriptor)", directoryMask & ~UInt32(IN_DONT_FOLLOW))
        }
    }

    /// Whether `/proc/self/fd` can name open files (asked once).
    private static let procIsMounted: Bool = access("/proc/self/fd", F_OK) == 0

    /// `inotify_rm_watch(fd, wd)`; a watch already gone is fine.
    package static func removeWatch(_ fd: Int32, _ wd: Int32) {
        _ = inotify_rm_watch(fd, wd)
    }

    /// `read(fd, …)` of queued events; 0 when none are queued (`EAGAIN`).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        do {
            return try Syscall.read(fd, into: buffer, path: "inotify")
        } catch where error.code == EAGAIN {
            return 0
        }
    }
}

/// One inotify event: the watch it came from, what happened, the rename cookie and
/// the name inside the watched directory (empty for the directory itself).
package struct InotifyEvent: Sendable, Hashable {
    package var watch: Int32
    package var mask: UInt32
    package var cookie: UInt32
    package var name: String

    package init(watch: Int32, mask: UInt32, cookie: UInt32 = 0, name: String = "") {
        (self.watch, self.mask, self.cookie, self.name) = (watch, mask, cookie, name)
    }

    /// The events packed in `bytes` as `read` returns them (header, then a
    /// NUL-padded name of `len` bytes).
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.count {
            let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[(offset + header)..<min(offset + header + length, bytes.count)])
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            events.append(InotifyEvent(watch: wd, mask: mask, cookie: cookie, name: name))
            offset += header + length
        }
        return events
    }
}
#endif
