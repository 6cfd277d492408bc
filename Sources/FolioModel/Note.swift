import FolioFormat

/// Any other Markdown file: a title (the `title:` field, else the first heading, else the file name) and its body.
public struct Note: Sendable, Hashable {
    /// The title.
    public var title: String
    /// The body.
    public var body: String

    /// Reads a note.
    public init(_ document: Document, path: String) {
        body = document.body
        title = Self.title(of: document, path: path)
    }

    /// A note's title alone, without making its body a `String` (a copy as large as the
    /// file: the store needs only the title).
    public static func title(of document: Document, path: String) -> String {
        if let title = document["title"]?.text, !title.isEmpty { return title }
        if let heading = Markdown.sections(in: document.bytes, range: document.layout.body).first { return heading.title }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    }
}
