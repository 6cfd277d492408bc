/// How a Markdown file is laid out around its front matter: byte ranges of each part,
/// so that the body's bytes are never touched and an unchanged file writes back whole.
public struct FrontMatterLayout: Sendable, Hashable {
    /// The file's line ending, as found on its first line.
    public enum LineEnding: String, Sendable, Hashable {
        /// `\n`.
        case lf = "\n"
        /// `\r\n`.
        case crlf = "\r\n"
    }

    /// Whether the file starts with a UTF-8 byte order mark.
    public var hasBOM: Bool
    /// The line ending new lines are written with.
    public var lineEnding: LineEnding
    /// The `---` opening line, with its line break; `nil` for a file without front matter.
    public var opener: Range<Int>?
    /// The YAML between the opening and closing lines (empty for empty front matter).
    public var yaml: Range<Int>?
    /// The `---` or `...` closing line, with its line break when there is one.
    public var closer: Range<Int>?
    /// Everything after the front matter (the whole file after any BOM when there is none).
    public var body: Range<Int>
    /// The file line on which the YAML starts.
    public var yamlFirstLine: Int { 2 }

    /// Whether the file has front matter.
    public var hasFrontMatter: Bool { opener != nil }
}

/// Splits a Markdown file into BOM, front matter and body.
public enum FrontMatter {
    /// The layout of `bytes`. A file whose first line (after any BOM) is `---`, with
    /// optional trailing blanks, has front matter, closed by the next `---` or `...`
    /// line; without that closing line the file is refused rather than read as body.
    public static func layout(of bytes: UnsafeBufferPointer<UInt8>, path: String? = nil) throws(FormatError) -> FrontMatterLayout {
        let n = bytes.count
        var i = 0
        let hasBOM = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        if hasBOM { i = 3 }
        let contentStart = i
        let firstLine = lineEnd(bytes, from: i)
        let lineEnding: FrontMatterLayout.LineEnding =
            firstLine.breakEnd > firstLine.end && bytes[firstLine.end] == 13 ? .crlf : .lf
        guard isMarker(bytes, contentStart..<firstLine.end, UInt8(ascii: "-")) else {
            return FrontMatterLayout(hasBOM: hasBOM, lineEnding: lineEnding, body: contentStart..<n)
        }
        let opener = contentStart..<firstLine.breakEnd
        var lineStart = firstLine.breakEnd
        while lineStart < n {
            let line = lineEnd(bytes, from: lineStart)
            if isMarker(bytes, lineStart..<line.end, UInt8(ascii: "-")) || isMarker(bytes, lineStart..<line.end, UInt8(ascii: ".")) {
                return FrontMatterLayout(
                    hasBOM: hasBOM, lineEnding: lineEnding, opener: opener, yaml: opener.upperBound..<lineStart,
                    closer: lineStart..<line.breakEnd, body: line.breakEnd..<n)
            }
            lineStart = line.breakEnd
        }
        throw FormatError(
            .frontMatterNotClosed, at: SourceLocation(path: path, line: 1, column: 1, offset: contentStart),
            "front matter is not closed: add a line '---' after its last field (the file starts with '---')",
            sourceLine: String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<firstLine.end]), as: UTF8.self))
    }

    /// The end of the line starting at `from`, before and after its line break.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (end: Int, breakEnd: Int) {
        var i = from
        let n = bytes.count
        while i < n && bytes[i] != 10 { i += 1 }
        if i == n { return (n, n) }
        let end = i > from && bytes[i - 1] == 13 ? i - 1 : i
        return (end, i + 1)
    }

    /// Whether the line is three `marker` characters followed only by blanks.
    private static func isMarker(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, _ marker: UInt8) -> Bool {
        guard line.count >= 3, bytes[line.lowerBound] == marker, bytes[line.lowerBound + 1] == marker,
              bytes[line.lowerBound + 2] == marker
        else { return false }
        return bytes[(line.lowerBound + 3)..<line.upperBound].allSatisfy { $0 == 32 || $0 == 9 }
    }
}
