/// A place in a source file, printed the way compilers and editors expect: `path:line:col`.
///
/// Lines and columns count from 1. Columns count Unicode scalars, so a caret drawn
/// under the column lines up in a terminal for text without wide characters.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file this location is in, as the user named it, or `nil` for text with no file.
    public var path: String?
    /// The line, counting from 1.
    public var line: Int
    /// The column, counting Unicode scalars from 1.
    public var column: Int
    /// The byte offset from the start of the file.
    public var offset: Int

    /// Creates a location.
    public init(path: String? = nil, line: Int, column: Int, offset: Int) {
        self.path = path
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `path:line:col`, or `line:col` when there is no path.
    public var description: String {
        if let path { return "\(path):\(line):\(column)" }
        return "\(line):\(column)"
    }
}
