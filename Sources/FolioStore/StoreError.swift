import FolioFormat
/// An action the reducer refused, or an effect the disk did not allow.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal it is, for a caller to act on.
    public enum Kind: Sendable, Hashable {
        /// The file changed on disk since the store read it: it was left as it is now,
        /// and read again. Try the action again on what is there now.
        case changedOnDisk
        /// No record at the path.
        case noSuchRecord
        /// The file does not parse, so the store does not change it (the message says where).
        case unparseable
        /// A record an app could not save: a recipe without title, ingredients or steps.
        case invalidRecord
        /// An edit the document cannot take (a key that is not a plain scalar key, say).
        case invalidEdit
        /// The disk refused a write or a delete: a full disk, a permission.
        case io
        /// An action for one kind of record (a todo's, a recipe's) on a file of another kind.
        case wrongKind
    }

    /// What kind of refusal it is.
    public var kind: Kind
    /// The file concerned, when there is one.
    public var path: String?
    /// What happened and what to do.
    public var message: String

    /// An error of kind `kind` about `path`.
    public init(_ kind: Kind, path: String?, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `PATH: error: MESSAGE`.
    public var description: String { (path.map { $0 + ": " } ?? "") + "error: " + message }

    /// The error for a file that is no longer what the store read.
    public static func changedOnDisk(_ path: String) -> StoreError {
        StoreError(.changedOnDisk, path: path, "the file changed on disk since Folio read it; Folio kept it as it is now and did not write")
    }

    /// The error for a file that does not parse, which Folio therefore does not change.
    static func unparseable(_ path: String, _ error: FormatError) -> StoreError {
        StoreError(.unparseable, path: path, "the file does not parse, so Folio does not change it: \(error)")
    }

    /// The error for a path that holds no record.
    public static func noSuchRecord(_ path: String) -> StoreError {
        StoreError(.noSuchRecord, path: path, "no such record (paths are relative to the folder: folio list DIR lists them)")
    }
}
