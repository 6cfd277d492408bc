/// Reading the structure of a Markdown body: ATX headings and top-level list items.
/// Fenced code blocks are skipped, so a `#` inside code is not a heading.
public enum Markdown {
    /// The sections of the body in `range`, in order.
    public static func sections(in bytes: [UInt8], range: Range<Int>) -> [MarkdownSection] {
        var headings: [(title: String, level: Int, line: Range<Int>)] = []
        forEachLine(in: bytes, range: range) { line, full in
            var level = 0
            var i = line.lowerBound
            while i < line.upperBound && bytes[i] == UInt8(ascii: "#") && level < 7 {
                level += 1
                i += 1
            }
            guard (1...6).contains(level), i == line.upperBound || bytes[i] == 32 || bytes[i] == 9 else { return }
            var title = String(decoding: bytes[i..<line.upperBound], as: UTF8.self)
            title = title.trimmingCharacters(in: " \t")
            while title.hasSuffix("#") { title.removeLast() }
            headings.append((title.trimmingCharacters(in: " \t"), level, full))
        }
        return headings.enumerated().map { index, heading in
            let end = headings[(index + 1)...].first { $0.level <= heading.level }?.line.lowerBound ?? range.upperBound
            return MarkdownSection(
                title: heading.title, level: heading.level, headingRange: heading.line,
                contentRange: heading.line.upperBound..<end)
        }
    }

    /// The top-level list items in `range`.
    public static func listItems(in bytes: [UInt8], range: Range<Int>) -> [MarkdownListItem] {
        var items: [MarkdownListItem] = []
        forEachLine(in: bytes, range: range) { line, _ in
            let text = String(decoding: bytes[line], as: UTF8.self)
            let trimmed = text.trimmingCharacters(in: " \t")
            let indent = text.utf8.prefix { $0 == 32 }.count
            if let (content, numbered) = listMarker(trimmed), indent < 4 {
                items.append(MarkdownListItem(text: content, isNumbered: numbered, range: line))
            } else if !trimmed.isEmpty, indent >= 2, var last = items.last, !text.hasPrefix("#") {
                // A continuation line of the previous item.
                last.text += " " + trimmed
                last.range = last.range.lowerBound..<line.upperBound
                items[items.count - 1] = last
            }
        }
        return items
    }

    /// The text before the first heading, trimmed.
    public static func leadText(in bytes: [UInt8], range: Range<Int>) -> String {
        let end = sections(in: bytes, range: range).first?.headingRange.lowerBound ?? range.upperBound
        return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self).trimmingCharacters(in: " \t\r\n")
    }

    static func listMarker(_ line: String) -> (String, Bool)? {
        for bullet in ["- ", "* ", "+ "] where line.hasPrefix(bullet) {
            return (String(line.dropFirst(2)).trimmingCharacters(in: " \t"), false)
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        let rest = line.dropFirst(digits.count)
        guard rest.hasPrefix(". ") || rest.hasPrefix(") ") else { return nil }
        return (String(rest.dropFirst(2)).trimmingCharacters(in: " \t"), true)
    }

    /// Calls `body` with each line's content range (without its break) and full range
    /// (with it), outside fenced code blocks.
    static func forEachLine(in bytes: [UInt8], range: Range<Int>, _ body: (Range<Int>, Range<Int>) -> Void) {
        var start = range.lowerBound
        var inFence = false
        while start < range.upperBound {
            var end = start
            while end < range.upperBound && bytes[end] != 10 { end += 1 }
            let next = end < range.upperBound ? end + 1 : end
            let contentEnd = end > start && bytes[end - 1] == 13 ? end - 1 : end
            let line = start..<contentEnd
            let trimmedStart = bytes[line].firstIndex { $0 != 32 } ?? contentEnd
            let isFence = contentEnd - trimmedStart >= 3
                && (bytes[trimmedStart..<trimmedStart + 3].allSatisfy { $0 == UInt8(ascii: "`") }
                    || bytes[trimmedStart..<trimmedStart + 3].allSatisfy { $0 == UInt8(ascii: "~") })
            if isFence {
                inFence.toggle()
            } else if !inFence {
                body(line, start..<next)
            }
            start = next
        }
    }
}
