/// A path below a folder, as the folder's own files name it: `notes/soup.md`, never
/// absolute, never through `.` or `..`. The empty path is the folder itself.
///
/// It is only text until it is used: ``components(displaying:)`` refuses one that could
/// lead outside, so a name read from a replica (or a log another device wrote) cannot
/// climb out of the folder however it is spelt.
public struct RelativePath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path, `/`-separated.
    public let string: String

    /// A path from its text.
    public init(_ string: String) { self.string = string }

    /// A path from a literal.
    public init(stringLiteral value: String) { self.string = value }

    /// The root: the folder itself.
    public static let root = RelativePath("")

    /// The root (a name that read as "a folder", which ``SyncPath/isFolder`` means).
    @available(*, deprecated, renamed: "root")
    public static var folder: RelativePath { root }

    /// The path as text.
    public var description: String { string }

    /// Whether this is the root, the folder itself.
    public var isRoot: Bool { string.isEmpty }

    /// Whether this is the root (a name that read as "names a folder", which
    /// ``SyncPath/isFolder`` means).
    @available(*, deprecated, renamed: "isRoot")
    public var isFolder: Bool { isRoot }

    /// Whether the path `path` is `folder` or lies below it (everything lies below the
    /// folder itself, `""`). Compared as `String`s compare, as the maps keyed by path do.
    public static func isAt(_ path: String, orBelow folder: String) -> Bool {
        folder.isEmpty || path == folder || path.hasPrefix(folder + "/")
    }

    /// Its last component.
    public var name: String {
        guard let slash = string.utf8.lastIndex(of: UInt8(ascii: "/")) else { return string }
        return String(string[string.index(after: slash)...])
    }

    /// The path of the folder holding it (``root`` for a name at the top).
    public var parent: RelativePath {
        guard let slash = string.utf8.lastIndex(of: UInt8(ascii: "/")) else { return .root }
        return RelativePath(String(string[..<slash]))
    }

    /// The path of `name` inside this one (`name` may hold `/`).
    public func appending(_ name: String) -> RelativePath {
        name.isEmpty ? self : RelativePath(string.isEmpty ? name : string + "/" + name)
    }

    /// Whether its components are all real names: none empty, `.` or `..`, and no NUL.
    public var staysInside: Bool {
        string.isEmpty || !string.split(separator: "/", omittingEmptySubsequences: false).contains { Self.isUnsafe($0) }
    }

    /// Its components; an error naming `display` when one is empty, `.` or `..` (or holds
    /// a NUL byte), which could lead outside the folder or name another file than meant.
    package func components(displaying display: @autoclosure () -> String) throws(SystemError) -> [Substring] {
        guard !string.isEmpty else { return [] }
        // Split on the byte: every file operation below a root comes here, and splitting
        // by `Character` (grapheme breaking) was a tenth of a first sync's time.
        let parts = string.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
        guard !parts.contains(where: Self.isUnsafe) else {
            throw SystemError(operation: .open, path: display(), code: Syscall.leadsOutside)
        }
        return parts
    }

    private static func isUnsafe(_ part: Substring) -> Bool {
        part.isEmpty || part == "." || part == ".." || part.utf8.contains(0)
    }

    /// Orders by the path's text.
    public static func < (lhs: RelativePath, rhs: RelativePath) -> Bool { lhs.string < rhs.string }
}
