import FolioSystem

/// Where the store reads a file's bytes when it needs them. The store keeps only a
/// fingerprint of each file, so memory does not grow with the bytes on disk.
public protocol ContentSource: Sendable {
    /// The bytes of the file at `path` (relative to the folder).
    func contents(of path: String) throws(SystemError) -> [UInt8]
}
