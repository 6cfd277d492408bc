import FolioFormat

/// A kind of record an app declares: its kind's name, the folder its new records go
/// in, how its values are read from and written to a document, and what it refuses.
///
/// A `Codable` type gets the reading and writing for free, over the front matter: its
/// properties are the fields (an optional left nil is no field), read as the typed
/// views read them (``YAMLValueDecoder``).
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
    /// The front-matter fields it writes, in order. Fields a document has that this
    /// does not name are never touched.
    func frontMatter() throws -> YAMLMapping
    /// The body it writes; nil leaves a record's body as it is (and a new one empty).
    var body: String? { get }
    /// Why an app could not save it (none: it can).
    var problems: [String] { get }
}

extension RecordType {
    /// The kind's folder (``Kind/folder``).
    public static var folder: String { kind.folder }
    /// No body of its own: a record's body stays as it is.
    public var body: String? { nil }
    /// Nothing refused.
    public var problems: [String] { [] }
}

extension RecordType where Self: Decodable {
    /// Decoded from the front matter.
    public init(document: Document) throws {
        self = try YAMLValueDecoder().decode(Self.self, from: .mapping(document.fields))
    }
}

extension RecordType where Self: Encodable {
    /// Encoded as the front matter (`kind:` is the store's to add).
    public func frontMatter() throws -> YAMLMapping {
        guard case .mapping(let fields) = try YAMLValueEncoder().encode(self) else {
            throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "a record type must encode as fields (a keyed container)"))
        }
        return fields
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
