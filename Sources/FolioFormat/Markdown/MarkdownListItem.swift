/// A list item of a Markdown body: `- text`, `* text`, `+ text`, `1. text` or `1) text`.
public struct MarkdownListItem: Sendable, Hashable {
    /// The item's text after its marker, continuation lines joined with spaces.
    public var text: String
    /// Whether the marker is a number (`1.`), not a bullet.
    public var isNumbered: Bool
    /// The item's lines, from the marker's line start to the end of its last line (without the final break).
    public var range: Range<Int>
}
