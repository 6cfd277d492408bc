import FolioSystem
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
