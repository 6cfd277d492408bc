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
    /// The same, each placed in the file at `path` (``RecordType/locatedProblems(in:path:)``).
    public let locatedProblems: @Sendable (Document, String) -> [ValidationIssue]

    /// The registration of `type`.
    public init<R: RecordType>(_ type: R.Type) {
        kind = R.kind
        folder = R.folder
        problems = { R.problems(in: $0) }
        locatedProblems = { R.locatedProblems(in: $0, path: $1) }
    }
}

/// The kinds beyond the built-in four: those the folder's `folio.yaml` declares and
/// those the app registered. What the reducer validates with, and which folder is
/// which kind's.
public struct KindRules: Sendable {
    /// The record types the app registered, by kind.
    public internal(set) var registered: [Kind: RegisteredKind] = [:] { didSet { folders = Self.folders(declared, registered) } }
    /// The kinds `folio.yaml` declares.
    public internal(set) var declared = DeclaredKinds() { didSet { folders = Self.folders(declared, registered) } }

    /// Each declared or registered folder's kind (a registered type's folder wins). Kept,
    /// not worked out on each read: every record the reducer reads asks it.
    public private(set) var folders: [String: Kind] = [:]

    private static func folders(_ declared: DeclaredKinds, _ registered: [Kind: RegisteredKind]) -> [String: Kind] {
        declared.folders.merging(registered.values.map { ($0.folder, $0.kind) }) { _, registered in registered }
    }

    /// The folder new records of `kind` go in.
    public func folder(of kind: Kind) -> String { registered[kind]?.folder ?? declared.schemas[kind]?.folder ?? kind.folder }

    /// What an app would refuse in `document` as a record of `kind` at `path`: the
    /// built-in rules, the declaration's and the registered type's, one message per fault
    /// (``locatedProblems(in:kind:path:)``).
    public func problems(in document: Document, kind: Kind, path: String) -> [String] {
        locatedProblems(in: document, kind: kind, path: path).map(\.message)
    }

    /// What an app would refuse in `document` as a record of `kind` at `path`, each placed
    /// in the file, in the file's order. A kind both registered in Swift and declared in
    /// `folio.yaml` gives one message per fault: where the type has something to say about
    /// a value (it does not decode, or its own rules refuse it), the declaration's message
    /// about the same value is left out — the app's words are what its user reads — and
    /// the declaration speaks for the values the type does not judge.
    public func locatedProblems(in document: Document, kind: Kind, path: String) -> [ValidationIssue] {
        let rules = Validation.issues(in: document, kind: kind, path: path, declared: declared.schemas[kind])
        guard let type = registered[kind] else { return rules }
        let own = type.locatedProblems(document, path)
        let judged = Set(own.compactMap(\.field))
        return (own + rules.filter { $0.field.map { !judged.contains($0) } ?? true }).sorted { $0.location.offset < $1.location.offset }
    }

    /// The kind `new` is at `path`, and the problems it has that `old` (what the file
    /// held, when known) did not: what an edit is refused for, as a record's old problems
    /// may be what the app is fixing.
    func problems(broughtBy new: Document, over old: Document?, at path: String) -> (kind: Kind, problems: [String]) {
        let kind = Kind.of(new, path: path, folders: folders)
        let before = Set(old.map { problems(in: $0, kind: Kind.of($0, path: path, folders: folders), path: path) } ?? [])
        return (kind, problems(in: new, kind: kind, path: path).filter { !before.contains($0) })
    }
}
