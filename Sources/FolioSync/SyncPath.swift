import FolioSystem
/// A path in a replica, relative to its root, that knows whether it names a file or a
/// folder: the key of every scan, archive entry and step of a sync.
///
/// A folder is synced as an entry of its own, so that an empty folder travels and a
/// folder removed on one side is removed on the other; a file and a folder of one name
/// are two entries (one side may have `notes` as a file where the other has a folder).
/// The path is held in the spelling the archive stores and reports print — a folder's
/// with a trailing `/` (`notes/`), a file's without (`notes/a.md`), the root empty — so
/// that equality, hashing and order are the archive's: a folder sorts just before what
/// is in it, and two spellings of one name in different Unicode normalizations are one
/// path, as they are for `String`.
public struct SyncPath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The archive's spelling: a folder's ends in `/`.
    public let key: String

    /// The file at `relative` (`/`-separated, below the root).
    public init(file relative: String) { key = relative }

    /// The folder at `relative`; the root for the empty path.
    public init(folder relative: String) { key = relative.isEmpty ? "" : relative + "/" }

    /// A path in the archive's spelling, as ``key`` gives it (a trailing `/` makes a folder).
    public init(key: String) { self.key = key }

    /// A path in the archive's spelling (`"notes/"` is a folder).
    public init(stringLiteral key: String) { self.key = key }

    /// The replica's root folder.
    public static let root = SyncPath(key: "")

    /// Whether this names a folder (the root is one).
    public var isFolder: Bool { key.isEmpty || key.utf8.last == Self.slash }

    /// Whether this names a file.
    public var isFile: Bool { !isFolder }

    /// The path below the root without a folder's trailing `/`: what is opened.
    public var relative: String { key.utf8.last == Self.slash ? String(key.dropLast()) : key }

    /// The folders this path is in, outermost first: `a/b/c.md` → `a/`, `a/b/`.
    public var ancestors: [SyncPath] {
        // By bytes: a search by `Character` ran grapheme breaking over every byte, and a first
        // sync asks this of every file it copies.
        var result: [SyncPath] = []
        let bytes = key.utf8
        let end = key.utf8.last == Self.slash ? bytes.index(before: bytes.endIndex) : bytes.endIndex
        var index = bytes.startIndex
        while index < end {
            if bytes[index] == Self.slash { result.append(SyncPath(key: String(key[...index]))) }
            bytes.formIndex(after: &index)
        }
        return result
    }

    /// Whether this path is inside `folder` (below it, not the folder itself).
    public func isInside(_ folder: SyncPath) -> Bool {
        folder.isFolder && key != folder.key && key.hasPrefix(folder.key)
    }

    /// The archive's spelling.
    public var description: String { key }

    /// In the archive's order: the order of the spelling.
    public static func < (left: SyncPath, right: SyncPath) -> Bool { left.key < right.key }

    private static let slash = UInt8(ascii: "/")
}

extension SyncPath {
    /// The file at `path`: a ``RelativePath`` (any path below a root, the rooted file
    /// layer's) that names a file.
    public init(file path: RelativePath) { self.init(file: path.string) }

    /// The folder at `path` (the replica's root for ``RelativePath/root``).
    public init(folder path: RelativePath) { self.init(folder: path.string) }

    /// The path below the root, as the rooted file layer opens it (a folder's without its
    /// trailing `/`; the root's ``RelativePath/root``).
    public var relativePath: RelativePath { RelativePath(relative) }
}
