import FolioFormat
import FolioModel

/// A record type an app registered with the store (``Store/register(_:)``): its kind,
/// its folder, and what it refuses, for the reducer to check adds and updates with.
public struct RegisteredKind: Sendable {
    /// The kind.
    public let kind: Kind
    /// The folder its new records go in.
    public let folder: String
    /// What the type refuses in a document of its kind (why it cannot be read as one,
    /// or its own ``RecordType/problems``).
    public let problems: @Sendable (Document) -> [String]

    /// The registration of `type`.
    public init<R: RecordType>(_ type: R.Type) {
        kind = R.kind
        folder = R.folder
        problems = { R.problems(in: $0) }
    }
}

extension [Kind: RegisteredKind] {
    /// What an app would refuse in `document` as a record of `kind` at `path`: the
    /// built-in rules (``Validation``) and a registered type's.
    func problems(in document: Document, kind: Kind, path: String) -> [String] {
        Validation.issues(in: document, kind: kind, path: path).map(\.message) + (self[kind]?.problems(document) ?? [])
    }
}
