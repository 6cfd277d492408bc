// The `…at` system calls that act below an open folder, wrapped as every other call in
// `Syscalls.swift`; `RootedPath` is their one user.
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

extension Syscall {
    /// A name that could lead outside its folder (empty, `.`, `..`, a NUL byte): Folio's
    /// own code, never an `errno`.
    package static let leadsOutside: Int32 = -1001
    /// A file that is not a regular file (a FIFO, a device, a socket): Folio's own code.
    package static let notRegularFile: Int32 = -1002
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
        _ = closeDescriptor(fd)
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
    package static func openRegularFile(
        _ name: String, in directory: Int32, flags: Int32, mode: UInt32 = 0o666, displayPath: String
    ) throws(SystemError) -> Int32 {
        let fd = try retrying(.open, displayPath) {
            openat(directory, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode_t(mode))
        }
        let status: FileStatus
        do { status = try Syscall.status(of: fd, path: displayPath) } catch {
            _ = closeDescriptor(fd)
            throw error
        }
        guard entryType(of: status) == .regular else {
            _ = closeDescriptor(fd)
            throw SystemError(operation: .open, path: displayPath, code: notRegularFile)
        }
        return fd
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
            _ = closeDescriptor(fd)
            throw SystemError(operation: .openDirectory, path: path, code: injected)
        }
        guard let dir = fdopendir(fd) else {
            let code = errno
            _ = closeDescriptor(fd)
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

private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
