/// A `#` heading of a Markdown body and the lines under it, up to the next heading
/// of the same or a higher level.
public struct MarkdownSection: Sendable, Hashable {
    /// The heading's text, without the `#` marks.
    public var title: String
    /// 1 for `#`, 2 for `##`, …
    public var level: Int
    /// The heading line, with its line break.
    public var headingRange: Range<Int>
    /// The lines under the heading.
    public var contentRange: Range<Int>
}
