/// A system call that failed: which, on what path, and the system's reason.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operations Folio performs on files.
    public enum Operation: String, Sendable, Hashable {
        case open, read, write, stat, sync, rename, unlink
        case openDirectory = "open directory", readDirectory = "read directory", makeDirectory = "create directory"
        case watch = "watch"
        case lock = "lock"
    }

    /// What was being done.
    public var operation: Operation
    /// The path it was done to.
    public var path: String
    /// The `errno` value.
    public var code: Int32

    /// Creates an error.
    public init(operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// `PATH: error: cannot open: Permission denied` (the path's control characters
    /// written out: a name is data, see ``TextEscaping``).
    public var description: String {
        "\(TextEscaping.name(path)): error: \(reason)"
    }

    /// Whether the path is not there, or a part of it that should be a folder is not:
    /// a path given wrong, rather than a disk that refused.
    public var isMissingPath: Bool { code == Syscall.noSuchFile || code == Syscall.notADirectory }

    /// Whether the path holds something Folio never reads as a file — a symbolic link, a
    /// FIFO, a device, a folder — rather than a file the disk would not give: a rule or
    /// settings file there is taken as absent, by design.
    package var isNotAFileToRead: Bool { code == Syscall.notRegularFile || code == Syscall.symbolicLinkInTheWay }

    /// `cannot open: Permission denied`: what failed and the system's reason, without the
    /// path; for a name Folio leaves out, `left out: ` and why.
    public var reason: String {
        isLeftOutName ? "left out: \(Syscall.describe(code))" : "cannot \(operation.rawValue): \(Syscall.describe(code))"
    }

    /// Whether this is a name Folio leaves out rather than a call that failed: not UTF-8,
    /// an NFC/NFD twin, or one that could lead outside the folder.
    public var isLeftOutName: Bool { [Syscall.invalidName, Syscall.normalizationTwin, Syscall.leadsOutside].contains(code) }
}
