import FolioSystem
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

    /// Reads `paths` each folder opened once for its run of files.
    public func contents(of paths: ArraySlice<String>) -> [Result<[UInt8], SystemError>] {
        FileReading.contents(of: paths, in: root)
    }

    /// Reads `paths` with their stamps, each folder opened once for its run of files.
    public func contentsAndStamps(of paths: ArraySlice<String>) -> [Result<(bytes: [UInt8], stamp: FileStamp?), SystemError>] {
        FileReading.contentsAndStamps(of: paths, in: root).map { $0.map { (bytes: $0.bytes, stamp: $0.stamp) } }
    }
}
