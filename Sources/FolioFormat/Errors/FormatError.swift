/// Why Folio refused a file: where, what was wrong, and what to do about it.
///
/// Printed with ``rendered`` as `FILE:LINE:COL: error: MESSAGE`, followed by the
/// offending line and a caret under the column.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is, for programs that react to errors.
    public enum Kind: Sendable, Hashable {
        /// A tab where YAML needs spaces for indentation.
        case tabIndentation
        /// A line indented in a way the structure around it does not allow.
        case badIndentation
        /// A quoted string that never ends.
        case unterminatedQuote
        /// A `[` or `{` collection that never ends.
        case unterminatedFlowCollection
        /// The same key twice in one mapping.
        case duplicateKey
        /// `key: value` where a mapping cannot start, as in `a: b: c`.
        case mappingValueNotAllowed
        /// Some other violation of YAML syntax.
        case syntax
        /// A `---` front matter opener without its closing line.
        case frontMatterNotClosed
        /// Front matter that is not a mapping of keys to values.
        case frontMatterNotMapping
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// Valid YAML that Folio's subset refuses rather than misreads.
        case unsupported
        /// Input past a depth or size limit.
        case limitExceeded
        /// An edit that cannot be applied to this document.
        case invalidEdit
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// Where the problem is.
    public var location: SourceLocation
    /// A sentence saying what was wrong and what to do.
    public var message: String
    /// The text of the offending line, without its line break, when known.
    public var sourceLine: String?

    /// Creates an error.
    public init(_ kind: Kind, at location: SourceLocation, _ message: String, sourceLine: String? = nil) {
        self.kind = kind
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// `FILE:LINE:COL: error: MESSAGE` on one line.
    public var description: String { "\(location): error: \(message)" }

    /// The one-line description, then the offending line and a caret under the column.
    public var rendered: String {
        guard let sourceLine else { return description }
        var caret = ""
        var column = 1
        for scalar in sourceLine.unicodeScalars {
            if column >= location.column { break }
            caret.append(scalar == "\t" ? "\t" : " ")
            column += 1
        }
        return "\(description)\n\(sourceLine)\n\(caret)^"
    }
}
