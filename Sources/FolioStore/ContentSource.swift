import FolioSystem

/// Where the store reads a file's bytes when it needs them. The store keeps only a
/// fingerprint of each file, so memory does not grow with the bytes on disk.
public protocol ContentSource: Sendable {
    /// The bytes of the file at `path` (relative to the folder).
    func contents(of path: String) throws(SystemError) -> [UInt8]
}

/// The files of a folder on disk.
public struct FolderSource: ContentSource {
    /// The folder.
    public let root: RootedFolder

    /// A source reading under `root`.
    public init(root: RootedFolder) { self.root = root }

    /// Reads `root/path` (a regular file, never through a link).
    public func contents(of path: String) throws(SystemError) -> [UInt8] {
        try FileReading.contents(of: root[path])
    }
}

/// Files held in memory, for tests and for states built from bytes.
public struct MemorySource: ContentSource {
    /// The files by path.
    public let files: [String: [UInt8]]

    /// A source holding `files`.
    public init(_ files: [String: [UInt8]]) { self.files = files }

    /// The file's bytes, or a "no such file" error.
    public func contents(of path: String) throws(SystemError) -> [UInt8] {
        guard let bytes = files[path] else { throw SystemError(operation: .open, path: path, code: Syscall.noSuchFile) }
        return bytes
    }
}

/// A file's size and 64-bit FNV-1a hash: enough to tell whether it is still the
/// file the store read, without keeping its bytes.
public struct Fingerprint: Sendable, Hashable {
    /// The size in bytes.
    public let size: Int
    /// The FNV-1a hash of the bytes.
    public let hash: UInt64

    /// The fingerprint of `bytes`.
    public init(_ bytes: [UInt8]) {
        size = bytes.count
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = h
    }
}
