// Every raw system call Folio makes, wrapped once: retried on EINTR, failures
// returned as `SystemError`, and a test hook to make any of them fail.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Folio needs Glibc, Musl or Darwin")
#endif
import CFolioSystem

/// The platform's `stat` record.
package typealias FileStatus = stat

/// An open directory: `DIR *` imports as an opaque pointer from Glibc and as a typed
/// pointer from Darwin.
#if canImport(Darwin)
package typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
package typealias DirectoryStream = OpaquePointer
#endif

/// Runs a system call, retrying while it fails with EINTR, and turns `-1` into an error
/// (internal, for the platform files of this module). `path` is made only for an error
/// or an injected fault: a scan stats every file, and most never need their path spelled.
@inline(__always)
func retrying<T: BinaryInteger>(
    _ operation: SystemError.Operation, _ path: @autoclosure () -> String, _ call: () -> T
) throws(SystemError) -> T {
    let faults = FaultInjection.inForce
    while true {
        let result: T
        let code: Int32
        if let faults {
            faults.beforeCall?(operation, path())
        }
        if let faults, let injected = faults.failure(operation, path()) {
            (result, code) = (-1, injected)
        } else {
            result = call()
            code = result == -1 ? errno : 0
        }
        if result != -1 { return result }
        if code != EINTR { throw SystemError(operation: operation, path: path(), code: code) }
    }
}

package enum Syscall {
    /// `ENOENT`.
    package static let noSuchFile = ENOENT
    /// `EXDEV`: a rename across file systems.
    package static let crossDevice = EXDEV
    /// `ENOTDIR`.
    package static let notADirectory = ENOTDIR
    /// `EEXIST`.
    package static let alreadyExists = EEXIST
    /// The errors of a name a file system cannot hold: `EINVAL` (a character FAT or
    /// exFAT refuses), `ENAMETOOLONG`, `EILSEQ` (not UTF-8 where names must be).
    package static let unholdableName: Set<Int32> = [EINVAL, ENAMETOOLONG, EILSEQ]
    /// `EILSEQ`: a name that is not valid UTF-8.
    package static let invalidName = EILSEQ
    /// `ENOTEMPTY`: a folder that still holds something.
    package static let notEmpty = ENOTEMPTY
    /// Whether `sync()` returns only once everything is on disk (Linux), or merely
    /// schedules the writes (Darwin): then each file is flushed on its own.
    #if canImport(Darwin)
    package static let syncWaitsForWrites = false
    #else
    package static let syncWaitsForWrites = true
    #endif
    /// `AT_FDCWD`: the `…at` calls with a path from the current folder (or an absolute one).
    package static let currentDirectory = AT_FDCWD

    /// `pread(fd, buffer, count, offset)` until `count` bytes are read or the file ends.
    package static func read(_ fd: Int32, count: Int, at offset: Int64, path: String) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try retrying(.read, path) { pread(fd, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
                }
            }.get()
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }

    /// `write(fd, buffer, count)` until every byte is written.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: @autoclosure () -> String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in
                    try retrying(.write, path()) { writeFD(fd, raw.baseAddress! + offset, raw.count - offset) }
                }
            }
            offset += try result.get()
        }
    }

    /// `fchmod(fd, mode)`: the permission bits, whatever the umask took away at creation.
    package static func changeMode(_ fd: Int32, _ mode: UInt32, path: String) throws(SystemError) {
        _ = try retrying(.write, path) { fchmod(fd, mode_t(mode)) }
    }

    /// `fsync(fd)`; on Darwin `fcntl(fd, F_FULLFSYNC)`, which also empties the drive's
    /// cache (plain `fsync` there does not reach the disk), falling back to `fsync`
    /// where a file system refuses it.
    package static func sync(_ fd: Int32, path: String) throws(SystemError) {
        _ = try retrying(.sync, path) { folio_full_sync(fd) }
    }

    /// `sync()`: every file system's writes flushed (`syncfs` is not in Swift's Glibc
    /// module). `path` only names what is being flushed, for the error.
    package static func syncFileSystem(_ path: String) throws(SystemError) {
        _ = path
        syncAll()
    }

    /// The errors of a file system or kernel that cannot rename atomically with flags.
    package static let renameFlagsUnsupported: Set<Int32> = [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP]

    /// The device and inode of `path` (following links: a replica given as a link is the
    /// folder it points to): what identifies a folder across runs.
    package static func identity(of path: String) throws(SystemError) -> (device: UInt64, inode: UInt64) {
        var st = FileStatus()
        _ = try retrying(.stat, path) { stat(path, &st) }
        return (UInt64(truncatingIfNeeded: st.st_dev), UInt64(st.st_ino))
    }

    /// `mkdir(path, mode)`; an existing folder is fine.
    package static func makeDirectory(_ path: String, mode: UInt32 = 0o777) throws(SystemError) {
        do { _ = try retrying(.makeDirectory, path) { mkdir(path, mode_t(mode)) } } catch where error.code == EEXIST {}
    }

    /// `flock(fd, LOCK_EX | LOCK_NB)`: true when this descriptor now holds the lock,
    /// false when another open file holds it (`EWOULDBLOCK`).
    package static func tryLockExclusively(_ fd: Int32, path: String) throws(SystemError) -> Bool {
        do { _ = try retrying(.lock, path) { flock(fd, LOCK_EX | LOCK_NB) } } catch where error.code == EWOULDBLOCK {
            return false
        }
        return true
    }

    /// `flock(fd, LOCK_UN)`: the lock released for every copy of the descriptor — a
    /// child process between its fork and its exec holds one, and a close alone would
    /// leave the lock held until that child execs.
    package static func unlock(_ fd: Int32, path: String) throws(SystemError) {
        _ = try retrying(.lock, path) { flock(fd, LOCK_UN) }
    }

    /// `ftruncate(fd, 0)` then `pwrite` of `bytes` at 0.
    package static func replaceContents(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        _ = try retrying(.write, path) { ftruncate(fd, 0) }
        _ = try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try retrying(.write, path) { pwrite(fd, raw.baseAddress, raw.count, 0) } }
        }.get()
    }

    /// `getpid()`.
    package static func processID() -> Int32 { getpid() }

    /// `close(fd)`. A failed close of a file opened for reading loses nothing, so it is not reported.
    package static func close(_ fd: Int32) {
        _ = closeFD(fd)
    }

    /// `fstat(fd)`.
    package static func status(of fd: Int32, path: @autoclosure () -> String) throws(SystemError) -> FileStatus {
        var st = FileStatus()
        _ = try retrying(.stat, path()) { fstat(fd, &st) }
        return st
    }

    /// `lstat(path)`.
    package static func linkStatus(_ path: String) throws(SystemError) -> FileStatus {
        var st = FileStatus()
        _ = try retrying(.stat, path) { lstat(path, &st) }
        return st
    }

    /// `fstatat(directory, name, AT_SYMLINK_NOFOLLOW)`: `lstat` of a name in an open
    /// folder, without walking the path from the root again.
    package static func linkStatus(_ name: String, in directory: Int32, displayPath: @autoclosure () -> String) throws(SystemError) -> FileStatus {
        var st = FileStatus()
        _ = try retrying(.stat, displayPath()) { fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) }
        return st
    }

    /// The descriptor of an open directory stream (for the `…at` calls).
    package static func descriptor(of dir: DirectoryStream) -> Int32 { dirfd(dir) }

    /// `read(fd, buffer, count)`.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(SystemError) -> Int {
        try retrying(.read, path) { readFD(fd, buffer.baseAddress, buffer.count) }
    }

    /// `closedir(dir)`.
    package static func closeDirectory(_ dir: DirectoryStream) {
        _ = closedir(dir)
    }

    /// The next entry of an open directory: its name and whether it is a directory,
    /// a regular file or something else; `nil` at the end. A name that is not valid
    /// UTF-8 comes as `.invalidName`, spelt with each bad byte as `\xFF` (Folio keeps
    /// paths as text, so it can neither open nor copy such a file: it says so instead).
    /// `path` names the directory, spelt only for an error.
    package static func nextEntry(_ dir: DirectoryStream, path: @autoclosure () -> String) throws(SystemError) -> (name: String, type: EntryType)? {
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno == 0 { return nil }
                if errno == EINTR { continue }
                throw SystemError(operation: .readDirectory, path: path(), code: errno)
            }
            // Decoded straight from the entry, and compared there: every scan reads every name.
            let (name, invalid): (String, [UInt8]?) = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { start in
                    let bytes = UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)))
                    let name = String(decoding: bytes, as: UTF8.self)
                    // Decoding repairs bad bytes: a name that does not come back the same is
                    // not UTF-8. Most names are ASCII, which decodes as it is.
                    let isASCII = bytes.allSatisfy { $0 < 0x80 }
                    return (name, isASCII || name.utf8.elementsEqual(bytes) ? nil : Array(bytes))
                }
            }
            if let invalid { return (escapedName(invalid), .invalidName) }
            if name == "." || name == ".." { continue }
            let type: EntryType
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): type = .directory
            case Int32(DT_REG): type = .regular
            case Int32(DT_LNK): type = .symbolicLink
            case Int32(DT_UNKNOWN): type = .unknown
            default: type = .other
            }
            return (name, type)
        }
    }

    /// A name's bytes as text, each byte that is not part of valid UTF-8 as `\xFF`.
    package static func escapedName(_ bytes: [UInt8]) -> String {
        var out = ""
        var parser = Unicode.UTF8.ForwardParser()
        var remaining = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &remaining) {
            case .valid(let encoded):
                out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] { out += "\\x" + String(byte, radix: 16, uppercase: true) }
                offset += length
            case .emptyInput:
                return out
            }
        }
    }

    /// What `st_mode` says a file is.
    package static func entryType(of status: FileStatus) -> EntryType {
        // mode_t and the S_IF* constants have different integer types on Linux and Darwin.
        switch Int(status.st_mode) & Int(S_IFMT) {
        case Int(S_IFDIR): return .directory
        case Int(S_IFREG): return .regular
        case Int(S_IFLNK): return .symbolicLink
        default: return .other
        }
    }

    /// `realpath(path)`: the absolute path with links and `..` resolved.
    package static func realPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw SystemError(operation: .stat, path: path, code: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `usleep(microseconds)`: the calling thread paused (a test's delay, see
    /// ``FaultInjection/environment``).
    package static func pause(microseconds: UInt32) {
        _ = usleep(microseconds)
    }

    /// `time(nil)`: seconds since the epoch.
    package static func now() -> Int {
        Int(time(nil))
    }

    /// `getenv(name)`.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `getenv(name)`, nil when it is empty too: an empty `XDG_STATE_HOME` or `TMPDIR`
    /// means the default, as the XDG and POSIX conventions have it.
    package static func environment(nonEmpty name: String) -> String? {
        environment(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The local time now (or `daysAgo` days before) as `YYYYMMDD-HHMMSS`, as conflict copies are named.
    package static func localTimestamp(daysAgo: Int = 0) -> String {
        var now = time(nil) - time_t(daysAgo * 86_400)
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }

    /// `YYYYMMDD-HHMMSS` read as local time (as Syncthing names its versions), in
    /// seconds since the epoch; nil when it is not such a time.
    package static func epochSeconds(fromLocalTimestamp text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 15, bytes[8] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 8 || ($0.element >= 48 && $0.element <= 57) })
        else { return nil }
        func number(_ range: Range<Int>) -> Int32 { bytes[range].reduce(0) { $0 * 10 + Int32($1 - 48) } }
        var parts = tm()
        parts.tm_year = number(0..<4) - 1900
        parts.tm_mon = number(4..<6) - 1
        parts.tm_mday = number(6..<8)
        parts.tm_hour = number(9..<11)
        parts.tm_min = number(11..<13)
        parts.tm_sec = number(13..<15)
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        return seconds == -1 ? nil : Int(seconds)
    }

    /// `clock_gettime(CLOCK_REALTIME)`: nanoseconds since the epoch.
    package static func nanosecondsNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `strerror(code)`, or what Folio's own codes and the link refusals mean.
    package static func describe(_ code: Int32) -> String {
        switch code {
        case leadsOutside: return "the name could lead outside the folder (an empty, `.` or `..` component); rename it"
        case notRegularFile: return "not a regular file (Folio reads only regular files, never a FIFO, device or socket)"
        case normalizationTwin:
            return "another name in this folder differs from this one only by Unicode normalization (an NFC and an NFD spelling); "
                + "both are left out: rename or remove one"
        case invalidName: return "the name is not valid UTF-8: rename it (convmv -f latin1 -t utf8 --notest NAME, for a name from an older system)"
        case ELOOP: return "a symbolic link is in the way (Folio never follows a link inside a folder)"
        default: return String(cString: strerror(code))
        }
    }
}

// The libc functions whose names the wrappers above reuse.
private func closeFD(_ fd: Int32) -> Int32 { close(fd) }
private func readFD(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func writeFD(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func syncAll() { sync() }

extension Syscall {
    /// Gives the memory the allocator holds free back to the system
    /// (`malloc_zone_pressure_relief` on Darwin, glibc's `malloc_trim` through
    /// CFolioSystem; nothing with musl). Called after the store swaps a large structure
    /// for a compact one: the freed pages would otherwise stay resident in a process
    /// that runs for weeks.
    package static func releaseFreeMemory() {
        #if canImport(Darwin)
        _ = malloc_zone_pressure_relief(nil, 0)
        #else
        folio_release_free_memory()
        #endif
    }

    /// Has the allocator serve every thread from one pool, for a process that runs for
    /// weeks: glibc otherwise gives threads that contend arenas of their own, and the
    /// pages freed in one stay resident while another grows (measured with
    /// `Benchmarks/churn.py`: back to 1.14× the loaded size after a burst of edits with
    /// the default arenas, 0.99× with one). To be called before the threads start.
    /// Darwin's allocator returns pages on its own terms (``releaseFreeMemory()``), so
    /// there this does nothing.
    package static func useOneMemoryArena() {
        #if !canImport(Darwin)
        folio_limit_memory_arenas(1)
        #endif
    }
}

// The `…at` calls that act below an open folder: `RootedPath` is their one user.

extension Syscall {
    /// A name that could lead outside its folder (empty, `.`, `..`, a NUL byte): Folio's
    /// own code, never an `errno`.
    package static let leadsOutside: Int32 = -1001
    /// A file that is not a regular file (a FIFO, a device, a socket): Folio's own code.
    package static let notRegularFile: Int32 = -1002
    /// A name that another name in its folder equals but for Unicode normalization (NFC
    /// and NFD spellings of one name): Folio's own code.
    package static let normalizationTwin: Int32 = -1003
    /// `EACCES`.
    package static let permissionDenied = EACCES
    /// `ENOSPC`: no space left on the device.
    package static let diskFull = ENOSPC
    /// `EROFS`.
    package static let readOnlyFileSystem = EROFS
    /// `EIO`.
    package static let inputOutputError = EIO
    /// `ELOOP`: a symbolic link where a folder or file was to be opened.
    package static let symbolicLinkInTheWay = ELOOP

    /// Whether this kernel resolves a path below a folder itself (`openat2`, Linux 5.6):
    /// asked once per process. `FOLIO_RESOLVE=walk` in the environment makes Folio walk
    /// the components itself (to compare the two, or where a sandbox refuses `openat2`
    /// in a way the probe cannot see).
    package static let kernelResolvesBeneath: Bool = {
        if environment("FOLIO_RESOLVE") == "walk" { return false }
        let fd = folio_open_beneath(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return errno != ENOSYS && errno != EPERM }
        _ = closeFD(fd)
        return true
    }()

    /// Whether the path below a root is resolved by the kernel (`openat2`) or by walking
    /// it one component at a time: what `folio --version`-like reports and benchmarks say.
    package static var resolutionInUse: String {
        kernelResolvesBeneath && FaultInjection.current?.walksComponents != true ? "openat2" : "component walk"
    }

    /// Opens the folder at `path` (a root: a link there is followed once, as the user named it).
    package static func openRootDirectory(_ path: String) throws(SystemError) -> Int32 {
        try retrying(.openDirectory, path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    }

    /// Opens the folder `components` below the open folder `root`, with no symbolic link
    /// on the way: `openat2` where the kernel has it, else one `openat(…, O_NOFOLLOW |
    /// O_DIRECTORY)` per component. The caller closes the result.
    package static func openDirectory(
        beneath root: Int32, _ components: [Substring], rootPath: String
    ) throws(SystemError) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        guard !components.isEmpty else {
            return try retrying(.openDirectory, rootPath) { openat(root, ".", flags) }
        }
        let display = rootPath + "/" + components.joined(separator: "/")
        if kernelResolvesBeneath && FaultInjection.current?.walksComponents != true {
            var attempts = 0
            while true {
                do {
                    return try retrying(.openDirectory, display) {
                        folio_open_beneath(root, components.joined(separator: "/"), flags, 0)
                    }
                } catch where error.code == EAGAIN && attempts < 8 {
                    // A rename raced the kernel's check; it asks to be tried again.
                    attempts += 1
                } catch where error.code == ENOSYS {
                    break
                }
            }
        }
        var current = root
        var walked = rootPath
        for component in components {
            walked += "/" + component
            let next: Int32
            do {
                next = try retrying(.openDirectory, walked) { openat(current, String(component), flags | O_NOFOLLOW) }
            } catch {
                if current != root { close(current) }
                throw error
            }
            if current != root { close(current) }
            current = next
        }
        return current
    }

    /// `openat(directory, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)`, then
    /// `fstat` on what was opened: anything but a regular file is closed again and
    /// refused (a FIFO never blocks: it opens at once without a writer, then is refused).
    /// With `O_CREAT | O_EXCL` the open makes a new regular file or fails, whatever is
    /// there (a link included): nothing is left to check, and no `fstat` is made.
    package static func openRegularFile(
        _ name: String, in directory: Int32, flags: Int32, mode: UInt32 = 0o666, displayPath: @autoclosure () -> String
    ) throws(SystemError) -> Int32 {
        if flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL { return try openBelow(name, in: directory, flags: flags, mode: mode, displayPath: displayPath()) }
        return try openRegularFileAndStatus(name, in: directory, flags: flags, mode: mode, displayPath: displayPath()).fd
    }

    /// The `openat` of the two above, with the flags every open below a root takes.
    private static func openBelow(_ name: String, in directory: Int32, flags: Int32, mode: UInt32, displayPath: @autoclosure () -> String) throws(SystemError) -> Int32 {
        try retrying(.open, displayPath()) { openat(directory, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode_t(mode)) }
    }

    /// ``openRegularFile(_:in:flags:mode:displayPath:)``, with the status its `fstat`
    /// took (a reader sizes its buffer from it: no second `fstat`).
    package static func openRegularFileAndStatus(
        _ name: String, in directory: Int32, flags: Int32, mode: UInt32 = 0o666, displayPath: String
    ) throws(SystemError) -> (fd: Int32, status: FileStatus) {
        let fd = try openBelow(name, in: directory, flags: flags, mode: mode, displayPath: displayPath)
        let status: FileStatus
        do { status = try Syscall.status(of: fd, path: displayPath) } catch {
            _ = closeFD(fd)
            throw error
        }
        guard entryType(of: status) == .regular else {
            _ = closeFD(fd)
            throw SystemError(operation: .open, path: displayPath, code: notRegularFile)
        }
        return (fd, status)
    }

    /// The `O_…` flags of the opens below a root, by what the file is opened for.
    package enum OpenPurpose {
        case reading, creatingExclusively, appending, updating

        var flags: Int32 {
            switch self {
            case .reading: O_RDONLY
            case .creatingExclusively: O_WRONLY | O_CREAT | O_EXCL
            case .appending: O_WRONLY | O_CREAT | O_APPEND
            case .updating: O_RDWR | O_CREAT
            }
        }
    }

    /// The errors of a system or file system that cannot make a file without a name
    /// (`O_TMPFILE`): the caller writes a named temporary file instead.
    package static let unnamedFilesUnsupported: Set<Int32> = [EOPNOTSUPP, ENOTSUP, EISDIR, EINVAL, ENOSYS]

    /// A new regular file with no name yet in the open folder `directory`, open for
    /// writing with permissions `mode` narrowed by the umask; nil where the system or
    /// the file system cannot make one (``unnamedFilesUnsupported``).
    package static func openUnnamedFile(in directory: Int32, mode: UInt32, displayPath: @autoclosure () -> String) throws(SystemError) -> Int32? {
        do { return try retrying(.open, displayPath()) { folio_open_unnamed(directory, mode) } } catch where unnamedFilesUnsupported.contains(error.code) {
            return nil
        }
    }

    /// Gives the unnamed file `fd` the name `name` in the open folder `directory`;
    /// fails with `EEXIST` rather than replace anything there. Fault injection sees it as
    /// a `rename`: it is the step that puts a file in place, as the rename of a named
    /// temporary file is, and a test's save "just before the rename" lands before it.
    package static func linkUnnamedFile(_ fd: Int32, as name: String, in directory: Int32, displayPath: @autoclosure () -> String) throws(SystemError) {
        _ = try retrying(.rename, displayPath()) { folio_link_unnamed(fd, directory, name) }
    }

    /// `renameat(fromDirectory, from, toDirectory, to)`.
    package static func rename(
        _ from: String, in fromDirectory: Int32, to: String, in toDirectory: Int32, displayPath: String
    ) throws(SystemError) {
        _ = try retrying(.rename, displayPath) { renameat(fromDirectory, from, toDirectory, to) }
    }

    /// `renameat2(…, RENAME_NOREPLACE)` below open folders.
    package static func renameWithoutReplacing(
        _ from: String, in fromDirectory: Int32, to: String, in toDirectory: Int32, displayPath: String
    ) throws(SystemError) {
        _ = try retrying(.rename, displayPath) { folio_renameat_noreplace(fromDirectory, from, toDirectory, to) }
    }

    /// `renameat2(…, RENAME_EXCHANGE)` below open folders.
    package static func exchange(
        _ from: String, in fromDirectory: Int32, with to: String, in toDirectory: Int32, displayPath: String
    ) throws(SystemError) {
        _ = try retrying(.rename, displayPath) { folio_renameat_exchange(fromDirectory, from, toDirectory, to) }
    }

    /// Whether the file open as `fd` (read-only) is open for writing anywhere, this
    /// process included: a writer that opened it before it was renamed or replaced can
    /// still write into it. Nil where that cannot be told (no leases on the platform or
    /// the file system, or another user's file): the caller then goes by the stamp alone.
    package static func isOpenForWriting(_ fd: Int32, path: @autoclosure () -> String) -> Bool? {
        // Not an error when it cannot be told: nil.
        guard let answer = try? retrying(.lock, path(), { folio_open_for_writing(fd) }) else { return nil }
        return answer == 1
    }

    /// `unlinkat(directory, name, 0)`, or with `AT_REMOVEDIR` for a folder.
    package static func unlink(_ name: String, in directory: Int32, folder: Bool = false, displayPath: String) throws(SystemError) {
        _ = try retrying(.unlink, displayPath) { unlinkat(directory, name, folder ? AT_REMOVEDIR : 0) }
    }

    /// `mkdirat(directory, name, mode)`; an existing folder is fine, anything else there is not.
    package static func makeDirectory(_ name: String, in directory: Int32, mode: UInt32, displayPath: String) throws(SystemError) {
        do { _ = try retrying(.makeDirectory, displayPath) { mkdirat(directory, name, mode_t(mode)) } } catch where error.code == EEXIST {
            let status = try linkStatus(name, in: directory, displayPath: displayPath)
            guard entryType(of: status) == .directory else { throw error }
        }
    }

    /// A stream over the open folder `fd`, which it takes over (`fdopendir`).
    package static func openDirectoryStream(_ fd: Int32, path: String) throws(SystemError) -> DirectoryStream {
        if let injected = FaultInjection.current?.failure(.openDirectory, path) {
            _ = closeFD(fd)
            throw SystemError(operation: .openDirectory, path: path, code: injected)
        }
        guard let dir = fdopendir(fd) else {
            let code = errno
            _ = closeFD(fd)
            throw SystemError(operation: .openDirectory, path: path, code: code)
        }
        return dir
    }

    /// Copies the extended attributes of the open file `source` onto the open file `fd`;
    /// those the process may not read or set are passed over.
    package static func copyExtendedAttributes(from source: Int32, to fd: Int32, path: String) throws(SystemError) {
        _ = try retrying(.write, path) { folio_copy_extended_attributes(source, fd) }
    }

    /// Creates `path` and the folders above it that are missing, each with `mode` (a
    /// state folder, outside any replica: the user named it).
    package static func makeDirectories(_ path: String, mode: UInt32) throws(SystemError) {
        // A probe: anything not there (or not to be looked at) is made below, and making it reports the real error.
        if let status = try? linkStatus(path) {
            guard entryType(of: status) == .directory else {
                throw SystemError(operation: .makeDirectory, path: path, code: alreadyExists)
            }
            return
        }
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]), mode: 0o777)
        }
        try makeDirectory(path, mode: mode)
    }
}
