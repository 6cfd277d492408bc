/// Plain and quoted scalars, with YAML's line folding and escapes.
extension YAMLParser {
    /// Refuses characters that cannot start a plain scalar.
    func checkPlainStart(flow: Bool) throws(FormatError) {
        let c = cur
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            let next = at(pos + 1)
            if isSpaceOrEnd(pos + 1) || (flow && Self.isFlowIndicator(next)) {
                throw error(.syntax, "'\(Character(Unicode.Scalar(c)))' cannot start a value here; quote the value")
            }
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
             UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
             UInt8(ascii: "`"):
            throw error(.syntax, "'\(Character(Unicode.Scalar(c)))' cannot start a plain value; quote the value")
        default:
            break
        }
    }

    /// Scans one line of a plain scalar; returns its text's range without trailing blanks.
    /// Stops at a line break, a comment, a ':' that ends a key, or (in flow) an indicator.
    mutating func scanPlainLine(flow: Bool) throws(FormatError) -> Range<Int> {
        let first = pos
        var lastNonBlank = pos
        while pos < end {
            let c = b[pos]
            if c == 10 || c == 13 { break }
            if c == UInt8(ascii: ":") {
                let next = at(pos + 1)
                if isSpaceOrEnd(pos + 1) || (flow && Self.isFlowIndicator(next)) { break }
            } else if c == UInt8(ascii: "#") {
                if pos > first && Self.isBlank(b[pos - 1]) { break }
            } else if flow && Self.isFlowIndicator(c) {
                break
            } else if c < 0x20 && c != 9 || c == 0x7F {
                throw error(.syntax, "control character U+\(String(c, radix: 16, uppercase: true)) is not allowed in YAML text; remove it")
            }
            pos += 1
            if !Self.isBlank(c) { lastNonBlank = pos }
        }
        return first..<lastNonBlank
    }

    func plainNode(_ range: Range<Int>, text: String, startMark: ParserMark) -> YAMLNode {
        let value = ScalarResolver.resolvePlain(bytes: UnsafeBufferPointer(rebasing: b[range]), text: text)
        return YAMLNode(content: .scalar(text: text, style: .plain), value: value, range: range, start: location(startMark))
    }

    /// Continues a plain scalar over following lines indented more than `parentIndent`,
    /// folding line breaks the YAML way.
    mutating func parsePlainContinuation(
        first: Range<Int>, startMark: ParserMark, parentIndent: Int, flow: Bool
    ) throws(FormatError) -> YAMLNode {
        var folded: [UInt8]?
        var upper = first.upperBound
        while !atEnd && Self.isBreak(cur) {
            let save = mark
            var breaks = 0
            while !atEnd && Self.isBreak(cur) {
                consumeBreak()
                breaks += 1
                skipBlanks()
            }
            if atEnd || cur == UInt8(ascii: "#") || atDocumentMarker() || leadingSpaces <= parentIndent
                || (flow && (Self.isFlowIndicator(cur) || (cur == UInt8(ascii: ":") && (isSpaceOrEnd(pos + 1) || Self.isFlowIndicator(at(pos + 1))))))
            {
                reset(save)
                break
            }
            let lineRange = try scanPlainLine(flow: flow)
            if !flow && cur == UInt8(ascii: ":") {
                throw error(.mappingValueNotAllowed, "mapping values are not allowed here; a key must be on one line, or quote the value if it contains ': '")
            }
            if folded == nil { folded = Array(b[first]) }
            if breaks == 1 {
                folded!.append(32)
            } else {
                folded!.append(contentsOf: repeatElement(10, count: breaks - 1))
            }
            folded!.append(contentsOf: b[lineRange])
            upper = lineRange.upperBound
            if cur == UInt8(ascii: "#") { break }
        }
        guard let folded else {
            return plainNode(first, text: text(first), startMark: startMark)
        }
        let scalarText = String(decoding: folded, as: UTF8.self)
        let value = folded.withUnsafeBufferPointer { ScalarResolver.resolvePlain(bytes: $0, text: scalarText) }
        return YAMLNode(
            content: .scalar(text: scalarText, style: .plain), value: value, range: first.lowerBound..<upper,
            start: location(startMark))
    }

    // MARK: - Quoted scalars

    /// A single- or double-quoted scalar; multi-line ones fold like plain scalars.
    mutating func parseQuotedScalar(parentIndent: Int) throws(FormatError) -> YAMLNode {
        let startMark = mark
        let quote = cur
        let double = quote == UInt8(ascii: "\"")
        pos += 1
        let contentStart = pos
        // Fast path: one line, no escapes.
        while pos < end {
            let c = b[pos]
            if c == quote {
                if !double && at(pos + 1) == quote { break }
                let range = contentStart..<pos
                pos += 1
                return YAMLNode(
                    content: .scalar(text: text(range), style: double ? .doubleQuoted : .singleQuoted),
                    value: .string(text(range)), range: startMark.pos..<pos, start: location(startMark))
            }
            if c == UInt8(ascii: "\\") && double { break }
            if Self.isBreak(c) || Self.isBlank(c) || c < 0x20 { break }
            pos += 1
        }
        var out = Array(b[contentStart..<pos])
        while true {
            guard pos < end else { throw unterminatedQuote(double, startMark) }
            let c = b[pos]
            if c == quote {
                if !double && at(pos + 1) == quote {
                    out.append(quote)
                    pos += 2
                    continue
                }
                pos += 1
                break
            }
            if double && c == UInt8(ascii: "\\") {
                if Self.isBreak(at(pos + 1)) {
                    pos += 1
                    consumeBreak()
                    try skipQuotedContinuationIndent(parentIndent: parentIndent, double: double, startMark: startMark, escaped: true)
                    continue
                }
                try appendEscape(into: &out)
                continue
            }
            if Self.isBlank(c) || Self.isBreak(c) {
                let blanksStart = pos
                skipBlanks()
                if atEnd { throw unterminatedQuote(double, startMark) }
                if !Self.isBreak(cur) {
                    out.append(contentsOf: b[blanksStart..<pos])
                    continue
                }
                // Trailing blanks before a break are dropped; the break folds.
                var breaks = 0
                while !atEnd && Self.isBreak(cur) {
                    consumeBreak()
                    breaks += 1
                    try skipQuotedContinuationIndent(parentIndent: parentIndent, double: double, startMark: startMark, escaped: false)
                }
                if breaks == 1 {
                    out.append(32)
                } else {
                    out.append(contentsOf: repeatElement(10, count: breaks - 1))
                }
                continue
            }
            if c < 0x20 || c == 0x7F {
                throw error(.syntax, "control character U+\(String(c, radix: 16, uppercase: true)) is not allowed in a quoted string; write it as an escape such as \\t")
            }
            out.append(c)
            pos += 1
        }
        let scalarText = String(decoding: out, as: UTF8.self)
        return YAMLNode(
            content: .scalar(text: scalarText, style: double ? .doubleQuoted : .singleQuoted),
            value: .string(scalarText), range: startMark.pos..<pos, start: location(startMark))
    }

    func unterminatedQuote(_ double: Bool, _ startMark: ParserMark) -> FormatError {
        let quote = double ? "\"" : "'"
        return error(
            .unterminatedQuote,
            "unterminated \(double ? "double" : "single")-quoted string: add the closing \(quote)",
            at: startMark)
    }

    /// At the start of a quoted scalar's continuation line: skips its indentation and checks it.
    mutating func skipQuotedContinuationIndent(
        parentIndent: Int, double: Bool, startMark: ParserMark, escaped: Bool
    ) throws(FormatError) {
        if atDocumentMarker() { throw unterminatedQuote(double, startMark) }
        skipBlanks()
        if atEnd { throw unterminatedQuote(double, startMark) }
        if Self.isBreak(cur) { return }
        if leadingSpaces <= parentIndent {
            // Most often the closing quote is missing; say so at the opening quote.
            let quote = double ? "\"" : "'"
            throw error(
                .unterminatedQuote,
                "unterminated \(double ? "double" : "single")-quoted string: add the closing \(quote) (a quoted string goes on to the next line only when that line is indented more than its key)",
                at: startMark)
        }
    }

    mutating func appendEscape(into out: inout [UInt8]) throws(FormatError) {
        let escapeMark = mark
        let c = at(pos + 1)
        pos += 2
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "0"): simple = 0
        case UInt8(ascii: "a"): simple = 7
        case UInt8(ascii: "b"): simple = 8
        case UInt8(ascii: "t"), 9: simple = 9
        case UInt8(ascii: "n"): simple = 10
        case UInt8(ascii: "v"): simple = 11
        case UInt8(ascii: "f"): simple = 12
        case UInt8(ascii: "r"): simple = 13
        case UInt8(ascii: "e"): simple = 27
        case 32: simple = 32
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        default: simple = nil
        }
        if let simple {
            out.append(simple)
            return
        }
        let scalar: Unicode.Scalar?
        switch c {
        case UInt8(ascii: "N"): scalar = "\u{85}"
        case UInt8(ascii: "_"): scalar = "\u{A0}"
        case UInt8(ascii: "L"): scalar = "\u{2028}"
        case UInt8(ascii: "P"): scalar = "\u{2029}"
        case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = c == UInt8(ascii: "x") ? 2 : c == UInt8(ascii: "u") ? 4 : 8
            guard pos + count <= end else { throw badEscape(escapeMark) }
            let hex = text(pos..<pos + count)
            guard hex.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }),
                  let code = UInt32(hex, radix: 16), let s = Unicode.Scalar(code)
            else { throw badEscape(escapeMark) }
            pos += count
            scalar = s
        default:
            throw badEscape(escapeMark)
        }
        if let scalar { out.append(contentsOf: Array(String(Character(scalar)).utf8)) }
    }

    func badEscape(_ mark: ParserMark) -> FormatError {
        error(.syntax, "invalid escape sequence in a double-quoted string; write '\\\\' for a backslash", at: mark)
    }
}
