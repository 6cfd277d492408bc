import FolioFormat
import FolioModel

/// Something wrong in the folder, placed in a file: a file that does not parse, a
/// declaration in `folio.yaml` that cannot be used, a value a record's kind refuses or
/// that does not decode as the app's type. What ``Store/problems`` lists.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// The file (or `folio.yaml`'s declaration) cannot be used as it is: it does not
        /// parse, or the declaration is left out.
        case error
        /// The record is read, but an app would refuse to save it as it is (a rule of its
        /// kind, or a value that does not read as the app's type).
        case warning
    }

    /// Where: the path (relative to the store's root), line and column.
    public var location: SourceLocation
    /// What is wrong and what to do.
    public var message: String
    /// How bad it is.
    public var severity: Severity
    /// The front-matter field it is about, nil when it is about the whole file.
    public var field: String?

    /// The file it is in, relative to the store's root.
    public var path: String { location.path ?? "" }

    /// `PATH:LINE:COL: error|warning: MESSAGE`, as `folio check` prints.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// A problem at `location`.
    public init(at location: SourceLocation, _ message: String, severity: Severity, field: String? = nil) {
        self.location = location
        self.message = message
        self.severity = severity
        self.field = field
    }

    /// A file that does not parse, at `path`.
    init(_ error: FormatError, path: String) {
        var location = error.location
        location.path = path
        self.init(at: location, error.message, severity: .error)
    }

    /// A rule a record breaks, at its `path`.
    init(_ issue: ValidationIssue, severity: Severity = .warning) {
        self.init(at: issue.location, issue.message, severity: severity, field: issue.field)
    }
}
