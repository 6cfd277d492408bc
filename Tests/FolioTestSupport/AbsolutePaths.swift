import FolioSystem

// Tests name files by absolute path in a temporary folder they made themselves: these
// shortcuts pin the file's folder as a root and go through the rooted layer like any
// other caller. Only tests have them; the product names every file below a root.

extension FileReading {
    /// The bytes of the file at the absolute `path` (test helper).
    public static func contents(of path: String) throws(SystemError) -> [UInt8] {
        try contents(of: AtomicFile.rooted(fileNamedByUser: path))
    }
}

extension AtomicFile {
    /// ``write(_:to:)`` by absolute path (test helper).
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        try write(bytes, toFileNamedByUser: path)
    }

    /// The guarded write by absolute path (test helper).
    public static func write(
        _ bytes: [UInt8], to path: String, mode: UInt32?, replacingOnly: ((FileStamp?) -> Bool)?
    ) throws(SystemError) -> Bool {
        try write(bytes, to: rooted(fileNamedByUser: path), mode: mode, replacingOnly: replacingOnly)
    }

    /// ``contentsIfPresent(_:)`` by absolute path (test helper).
    public static func contentsIfPresent(_ path: String) throws(SystemError) -> [UInt8]? {
        try contentsIfPresent(rooted(fileNamedByUser: path))
    }
}

extension FileStamp {
    /// The stamp of the absolute `path`, not following a link there (test helper).
    public static func of(_ path: String) throws(SystemError) -> FileStamp {
        try of(RootedFolder(AtomicFile.parent(of: path))[AtomicFile.name(of: path)])
    }
}

extension DirectoryWalk {
    /// ``files(under:descend:include:)`` of the folder at `root` (test helper).
    public static func files(
        under root: String, descend: (String) -> Bool, include: (String) -> Bool
    ) throws(SystemError) -> (paths: [String], problems: [SystemError]) {
        try files(under: RootedFolder(root).root, descend: descend, include: include)
    }
}

extension RootedPath {
    /// The absolute `path` as a path below its own folder (test helper).
    public static func absolute(_ path: String) throws(SystemError) -> RootedPath {
        try RootedFolder(AtomicFile.parent(of: path))[AtomicFile.name(of: path)]
    }
}
