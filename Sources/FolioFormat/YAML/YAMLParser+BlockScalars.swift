/// `|` and `>` block scalars.
extension YAMLParser {
    /// A `|` or `>` block scalar, with chomping and indentation indicators.
    mutating func parseBlockScalar(parentIndent: Int) throws(FormatError) -> YAMLNode {
        let startMark = mark
        let folded = cur == UInt8(ascii: ">")
        pos += 1
        let (chomping, indicator) = try parseBlockScalarIndicators()
        let headerEnd = pos
        try finishBlockScalarHeader(headerEnd: headerEnd)
        var upper = headerEnd
        if !atEnd { consumeBreak() }
        let indent = try blockScalarIndent(indicator: indicator, parentIndent: parentIndent)
        var out: [UInt8] = []
        var leadingBreak = false
        var trailingBreaks = 0
        var leadingBlank = false
        var lastBreakStart = headerEnd
        while true {
            // Indentation and empty lines.
            while true {
                while column < indent && cur == 32 { pos += 1 }
                if !atEnd && Self.isBreak(cur) {
                    trailingBreaks += 1
                    lastBreakStart = pos
                    consumeBreak()
                    continue
                }
                if !atEnd && column < indent && cur == 9 {
                    // A tab where indentation was expected.
                    let save = mark
                    skipBlanks()
                    if atLineEnd { throw tabError(at: mark) }
                    reset(save)
                }
                if atEnd && pos > lineStart && lineStart > headerEnd {
                    // Blanks at the end of the input end an empty line, as if a line break followed.
                    trailingBreaks += 1
                }
                break
            }
            if atEnd || column < indent || atDocumentMarker() {
                // Give back the indentation of the line that ends the scalar.
                if lineStart > headerEnd { pos = lineStart }
                break
            }
            let trailingBlank = Self.isBlank(cur)
            if folded && leadingBreak && !leadingBlank && !trailingBlank {
                if trailingBreaks == 0 { out.append(32) }
                leadingBreak = false
            } else if leadingBreak {
                out.append(10)
                leadingBreak = false
            }
            out.append(contentsOf: repeatElement(10, count: trailingBreaks))
            trailingBreaks = 0
            leadingBlank = trailingBlank
            let contentStart = pos
            while pos < end && !Self.isBreak(b[pos]) {
                let c = b[pos]
                if c < 0x20 && c != 9 || c == 0x7F {
                    throw error(.syntax, "control character U+\(String(c, radix: 16, uppercase: true)) is not allowed in YAML text; remove it")
                }
                pos += 1
            }
            out.append(contentsOf: b[contentStart..<pos])
            upper = pos
            if atEnd {
                // The end of the input ends the last line, as if a line break followed.
                leadingBreak = true
                break
            }
            lastBreakStart = pos
            consumeBreak()
            leadingBreak = true
        }
        if chomping != .strip && leadingBreak { out.append(10) }
        if chomping == .keep {
            out.append(contentsOf: repeatElement(10, count: trailingBreaks))
            if trailingBreaks > 0 { upper = max(upper, lastBreakStart) }
        }
        let scalarText = String(decoding: out, as: UTF8.self)
        return YAMLNode(
            content: .scalar(text: scalarText, style: folded ? .folded : .literal), value: .string(scalarText),
            range: startMark.pos..<upper, start: location(startMark))
    }

    /// How a block scalar ends: its final line breaks stripped (`-`), one kept (the
    /// default), or all kept (`+`).
    enum BlockChomping { case strip, clip, keep }

    /// The chomping and indentation indicators after `|` or `>`, in either order.
    mutating func parseBlockScalarIndicators() throws(FormatError) -> (BlockChomping, Int?) {
        var chomping = BlockChomping.clip
        var indicator: Int?
        var sawChomp = false
        for _ in 0..<2 {
            let c = cur
            if (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")) && !sawChomp {
                chomping = c == UInt8(ascii: "+") ? .keep : .strip
                sawChomp = true
                pos += 1
            } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") && indicator == nil {
                indicator = Int(c - 48)
                pos += 1
            } else if c == UInt8(ascii: "0") {
                throw error(.syntax, "a block scalar's indentation indicator must be 1 to 9")
            }
        }
        return (chomping, indicator)
    }

    /// The rest of the header line: blanks and a comment only.
    mutating func finishBlockScalarHeader(headerEnd: Int) throws(FormatError) {
        skipBlanks()
        if cur == UInt8(ascii: "#") {
            if pos == headerEnd { throw error(.syntax, "a comment needs a space before '#'") }
            skipComment()
        }
        if !atLineEnd {
            throw error(.syntax, "invalid block scalar header: after '|' or '>' only '+', '-', a digit 1-9 and a comment may follow; start the text on the next line")
        }
    }

    /// The block scalar's indentation: from its indicator, else from its first line of
    /// text (leading blank lines may not be indented more). Leaves the position where it was.
    mutating func blockScalarIndent(indicator: Int?, parentIndent: Int) throws(FormatError) -> Int {
        if let indicator { return max(max(parentIndent, 0) + indicator, 0) }
        let save = mark
        var maxEmpty = 0
        var maxEmptyMark = mark
        var indent = parentIndent + 1
        while !atEnd {
            let spacesStart = pos
            while !atEnd && cur == 32 { pos += 1 }
            let spaces = pos - spacesStart
            if atLineEnd {
                if spaces > maxEmpty { maxEmpty = spaces; maxEmptyMark = ParserMark(pos: spacesStart, line: line, lineStart: lineStart) }
                if atEnd { break }
                consumeBreak()
                continue
            }
            indent = max(spaces, parentIndent + 1)
            break
        }
        if atEnd { indent = max(maxEmpty, parentIndent + 1) }
        if maxEmpty > indent && !atEnd {
            throw error(.badIndentation, "a leading blank line of this block scalar has more spaces than its first line of text; remove the extra spaces", at: maxEmptyMark)
        }
        reset(save)
        return max(indent, 0)
    }
}
