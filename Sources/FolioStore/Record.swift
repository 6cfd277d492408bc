import FolioFolder
import Foundation
import FolioFormat
import FolioModel

/// One file of the folder as the store holds it: a fingerprint of its bytes, and what
/// the indexes and lists need (the bytes are read again through the state's
/// ``ContentSource`` when needed). A file that does not parse is a record too, with
/// its error; it is listed, never dropped and never rewritten.
public struct Record: Sendable, Hashable, Identifiable {
    /// The path relative to the folder, with `/` separators.
    public let path: String
    /// Its identity in lists: the path (a file moved is another row).
    public var id: String { path }
    /// The fingerprint of the bytes as read (or as last written by the store).
    public let fingerprint: Fingerprint
    /// The record's kind.
    public let kind: Kind
    /// A recipe's or todo's title, a workout's name, a quote's text, a note's title.
    public let title: String
    /// Why the file does not parse, for an invalid file.
    public var error: FormatError? { invalid?.error }
    /// Boxed, since most records have none and the error is large.
    private let invalid: InvalidFile?
    /// The tags, folded.
    public let tags: [String]
    /// The `date:` field's day.
    public let date: CalendarDate?
    /// The `date:` field as an instant, its time of day included (a date alone is
    /// midnight UTC; a time without a zone, UTC).
    public let dateTime: Date?
    /// A todo's done flag.
    public private(set) var done: Bool?
    /// A todo's priority.
    public private(set) var priority: Int?
    /// A todo's manual position.
    public private(set) var order: Int?
    /// A workout's distance.
    public private(set) var distance: Double?
    /// A workout's complexity.
    public private(set) var complexity: Complexity?
    /// Where the body starts in the file's bytes.
    let bodyStart: Int

    /// Whether the file parsed.
    public var isValid: Bool { error == nil }

    /// The file this record is a conflict copy of (Folio's, Syncthing's or Dropbox's), if it is one.
    public var conflictCopyOf: String? { ConflictCopies.originalOfAnyCopy(path) }

    /// Reads a record from a file's bytes; `folders` names the kinds of folders declared
    /// beyond the built-in ones (``Kind/of(_:path:folders:)``).
    public init(path: String, bytes: [UInt8], folders: [String: Kind] = [:]) {
        do {
            self.init(path: path, document: try Document(bytes: bytes, path: path), folders: folders)
        } catch {
            self.init(path: path, invalidBytes: bytes, error: error, folders: folders)
        }
    }

    /// A record of a file that does not parse.
    init(path: String, invalidBytes: [UInt8], error: FormatError, folders: [String: Kind] = [:]) {
        self.path = path
        fingerprint = Fingerprint(invalidBytes)
        invalid = InvalidFile(error: error)
        bodyStart = 0
        kind = Kind.of(path: path, folders: folders)
        title = path.split(separator: "/").last.map(String.init) ?? path
        tags = []
        (date, dateTime, done, priority, order, distance, complexity) = (nil, nil, nil, nil, nil, nil, nil)
    }

    /// A record of a parsed document. Reads only the fields the lists and indexes need.
    public init(path: String, document: Document, folders: [String: Kind] = [:]) {
        self.path = path
        fingerprint = Fingerprint(document.bytes)
        invalid = nil
        bodyStart = document.layout.body.lowerBound
        let fields = document.fields
        let kind = Kind.of(document, path: path, folders: folders)
        self.kind = kind
        tags = (fields["tags"]?.stringList ?? []).map(TextFolding.folded)
        let dateValue = fields["date"] ?? fields["due"]
        date = dateValue?.calendarDate
        dateTime = dateValue?.date
        func text(_ keys: String...) -> String? { keys.lazy.compactMap { fields[$0]?.text }.first { !$0.isEmpty } }
        (done, priority, order, distance, complexity) = (nil, nil, nil, nil, nil)
        switch kind {
        case .recipe, .todo:
            title = text("title", "name") ?? ""
            if kind == .todo {
                let todo = Todo(document)
                (done, priority, order) = (todo.done, todo.priority, todo.order)
            }
        case .workout:
            title = text("name", "title") ?? ""
            distance = fields["distance"]?.doubleValue
            complexity = fields["complexity"]?.text.flatMap { Complexity(rawValue: $0.lowercased()) }
        case .quote:
            title = text("text", "quote") ?? Quote(document).text
        default:
            title = Note.title(of: document, path: path)
        }
    }
}

/// The error of a file that does not parse.
final class InvalidFile: Sendable, Hashable {
    let error: FormatError

    init(error: FormatError) { self.error = error }

    static func == (a: InvalidFile, b: InvalidFile) -> Bool { a.error == b.error }
    func hash(into hasher: inout Hasher) { hasher.combine(error) }
}

