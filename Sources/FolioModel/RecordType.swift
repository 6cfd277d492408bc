import FolioFormat

/// A kind of record an app declares: its kind's name, the folder its new records go
/// in, how its values are read from and written to a document, and what it refuses.
///
/// A `Codable` type gets the reading, writing and updating for free: its properties are the fields (an optional left nil is no
/// field), read as the typed views read them (``YAMLValueDecoder``). The built-in
/// ``Recipe``, ``Todo``, ``Workout`` and ``Quote`` are record types too, with edits of
/// their own (a recipe's ingredients in its body).
///
/// ```swift
/// struct Book: RecordType, Codable {
///     static let kind = Kind(rawValue: "book")
///     var title: String
///     var author: String
///     var rating: Int?
///     var problems: [String] { (rating.map { (1...5).contains($0) } ?? true) ? [] : ["rating \(rating!) is not from 1 to 5"] }
/// }
/// ```
public protocol RecordType: Sendable {
    /// The kind's name (`book`): written as `kind:` when the folder does not say it.
    static var kind: Kind { get }
    /// The folder its new records go in (by default the kind's, `books`).
    static var folder: String { get }
    /// Reads one from a record's document; throws when the document is not one (a
    /// required field missing, a value of the wrong type), saying which field.
    init(document: Document) throws
    /// A new file's document for this record.
    func newDocument() throws -> Document
    /// `document` with this record written in, with minimal edits: what it holds that
    /// this record does not name stays as it is.
    func updating(_ document: Document) throws -> Document
    /// Why an app could not save it (none: it can).
    var problems: [String] { get }
    /// The body a `Codable` record type writes; nil (the default) leaves a record's
    /// body as it is, and a new one's empty.
    var body: String? { get }
}

extension RecordType {
    /// The kind's folder (``Kind/folder``).
    public static var folder: String { kind.folder }
    /// Nothing refused.
    public var problems: [String] { [] }
    /// No body of its own.
    public var body: String? { nil }
}

/// A `Codable` record type's fields are its properties: reading, writing and updating
/// come for free.
extension RecordType where Self: Codable {
    /// Decoded from the front matter.
    public init(document: Document) throws {
        self = try YAMLValueDecoder().decode(Self.self, from: .mapping(document.fields))
    }

    /// Encoded as the front matter (`kind:` is the store's to add).
    public func frontMatter() throws -> YAMLMapping {
        guard case .mapping(let fields) = try YAMLValueEncoder().encode(self) else {
            throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "a record type must encode as fields (a keyed container)"))
        }
        return fields
    }

    /// The fields, then the body.
    public func newDocument() throws -> Document {
        try Document(fields: try frontMatter(), body: body ?? "")
    }

    /// Only the fields that differ from what `document` holds as this type writes it
    /// (so a value written otherwise but meaning the same, `rating: "4"`, is not
    /// rewritten), set; those it no longer has, removed; the body, when it has one of its
    /// own that differs. A document that cannot be read as this type gets every field.
    public func updating(_ document: Document) throws -> Document {
        let new = try frontMatter()
        // A document that is not one of these yet has nothing to compare with: every field is written.
        let old = (try? Self(document: document).frontMatter()) ?? YAMLMapping()
        var updated = document
        for entry in new.entries where old[entry.key] != entry.value || document.fields[entry.key] == nil {
            try updated.setValue(entry.value, forKey: entry.key)
        }
        for key in old.keys where new[key] == nil && document.fields[key] != nil { try updated.removeValue(forKey: key) }
        if let body, body != updated.body { try updated.setBody(body) }
        return updated
    }
}

extension RecordType {
    /// The problems of the record in `document` as this type sees it: why it cannot
    /// be read as one, or what it refuses.
    public static func problems(in document: Document) -> [String] {
        do { return try Self(document: document).problems } catch { return [RecordReadError.describe(error)] }
    }
}

/// What a `DecodingError` says, for a person: the field and what was wrong.
public enum RecordReadError {
    /// `rating: expected a whole number, found 'nine'`, `no 'title:' field`.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty ? context.debugDescription : "\(field(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return field(context.codingPath + [key]) + ": required, and missing: add '\(key.stringValue): …'"
        @unknown default:
            return "\(error)"
        }
    }
}
