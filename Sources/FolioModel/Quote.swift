import FolioFormat

/// A quote: `text`, `author`, `source`.
public struct Quote: Sendable, Hashable {
    /// The words.
    public var text: String
    /// Who said them.
    public var author: String?
    /// Where they come from.
    public var source: String?

    /// A new quote.
    public init(text: String, author: String? = nil, source: String? = nil) {
        self.text = text
        self.author = author
        self.source = source
    }

    /// What an app would refuse to save: every problem, each a sentence.
    public var problems: [String] {
        text.trimmingCharacters(in: " \t\r\n").isEmpty ? ["a quote needs its words"] : []
    }

    /// Reads a quote: the `text:` (or `quote:`) field, else the body.
    public init(_ document: Document) {
        let fields = document.fields
        text = (fields["text"] ?? fields["quote"])?.text ?? document.body.trimmingCharacters(in: " \t\r\n")
        author = fields["author"]?.text
        source = fields["source"]?.text
    }

    /// `document` with this quote's changed fields written with minimal edits.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Quote(document)
        var writer = FieldWriter(document: document)
        if text != old.text { try writer.set(firstKey(["text", "quote"], in: document), .string(text)) }
        if author != old.author { try writer.set("author", author.map(YAMLValue.string)) }
        if source != old.source { try writer.set("source", source.map(YAMLValue.string)) }
        return writer.document
    }

    /// A new file for this quote.
    public func newDocument() throws(FormatError) -> Document {
        var fields: YAMLMapping = ["text": .string(text), "kind": .string("quote")]
        if let author { fields["author"] = .string(author) }
        if let source { fields["source"] = .string(source) }
        return try Document(fields: fields, body: "")
    }
}
