import FolioSystem

/// Where the store reads a file's bytes when it needs them. The store keeps only a
/// fingerprint of each file, so memory does not grow with the bytes on disk.
public protocol ContentSource: Sendable {
    /// The bytes of the file at `path` (relative to the folder).
    func contents(of path: String) throws(SystemError) -> [UInt8]
    /// The bytes of each file at `paths`, in order, or why it could not be read: a source
    /// may read a run of paths more cheaply than one by one (a folder opened once).
    func contents(of paths: ArraySlice<String>) -> [Result<[UInt8], SystemError>]
    /// ``contents(of:)-(ArraySlice<String>)`` with each file's stamp once read, where the
    /// source has stamps (a folder on disk; else nil): what a load hands to a second
    /// reader of the same files, which needs to know how long ago each changed.
    func contentsAndStamps(of paths: ArraySlice<String>) -> [Result<(bytes: [UInt8], stamp: FileStamp?), SystemError>]
}

extension ContentSource {
    /// Each path read by itself.
    public func contents(of paths: ArraySlice<String>) -> [Result<[UInt8], SystemError>] {
        paths.map { path in Result { () throws(SystemError) in try contents(of: path) } }
    }

    /// The contents, without stamps.
    public func contentsAndStamps(of paths: ArraySlice<String>) -> [Result<(bytes: [UInt8], stamp: FileStamp?), SystemError>] {
        contents(of: paths).map { $0.map { (bytes: $0, stamp: nil) } }
    }
}
