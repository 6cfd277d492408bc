/// Writes YAML the way a person writes front matter by hand: block mappings, short
/// scalar lists in flow style, multi-line text as `|` blocks, and quotes only where
/// needed — always for strings a YAML 1.1 reader would misread (`no`, `on`, `12:30`,
/// `2026-11-30` meant as text).
public enum YAMLEmitter {
    /// Flow lists longer than this many characters are written one item per line.
    public static let flowWidth = 60
    /// Spaces per nesting level.
    static let step = 2

    /// The YAML text of `value` as a whole document: one line per entry, each ending
    /// with `lineEnding`. A mapping is written as block `key: value` lines.
    public static func document(_ value: YAMLValue, lineEnding: FrontMatterLayout.LineEnding = .lf) -> String {
        var lines: [String] = []
        switch value {
        case .mapping(let mapping) where !mapping.isEmpty:
            for entry in mapping.entries { lines += entryLines(key: keyText(entry.key), value: entry.value, indent: 0) }
        case .sequence(let items) where !items.isEmpty && flowText(value, width: flowWidth) == nil:
            for item in items { lines += sequenceItemLines(item, indent: 0) }
        default:
            lines = blockScalarLines(value, indent: step) ?? [inlineText(value, flow: false)]
        }
        return lines.map { $0 + lineEnding.rawValue }.joined()
    }

    // MARK: - Lines

    /// The lines of one `key: value` entry at `indent`.
    static func entryLines(key: String, value: YAMLValue, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .null:
            return [pad + key + ":"]
        case .mapping(let mapping) where !mapping.isEmpty:
            return [pad + key + ":"]
                + mapping.entries.flatMap { entryLines(key: keyText($0.key), value: $0.value, indent: indent + step) }
        case .sequence(let items) where !items.isEmpty:
            if let flow = flowText(value, width: flowWidth) { return [pad + key + ": " + flow] }
            return [pad + key + ":"] + items.flatMap { sequenceItemLines($0, indent: indent + step) }
        default:
            if let block = blockScalarLines(value, indent: indent + step) {
                return [pad + key + ": " + block[0]] + block.dropFirst()
            }
            return [pad + key + ": " + inlineText(value, flow: false)]
        }
    }

    /// The lines of one `- item` of a block sequence at `indent`.
    static func sequenceItemLines(_ item: YAMLValue, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let inner = indent + step
        switch item {
        case .mapping(let mapping) where !mapping.isEmpty:
            var lines = mapping.entries.flatMap { entryLines(key: keyText($0.key), value: $0.value, indent: inner) }
            lines[0] = pad + "- " + lines[0].dropFirst(inner)
            return lines
        case .sequence(let items) where !items.isEmpty:
            if let flow = flowText(item, width: flowWidth) { return [pad + "- " + flow] }
            var lines = items.flatMap { sequenceItemLines($0, indent: inner) }
            lines[0] = pad + "- " + lines[0].dropFirst(inner)
            return lines
        default:
            if let block = blockScalarLines(item, indent: inner) {
                return [pad + "- " + block[0]] + block.dropFirst()
            }
            return [pad + "- " + inlineText(item, flow: false)]
        }
    }

    /// A multi-line string as a `|` block scalar: the header, then its lines at
    /// `indent`. Nil for strings that are not multi-line or that a block cannot hold.
    static func blockScalarLines(_ value: YAMLValue, indent: Int) -> [String]? {
        guard case .string(let text) = value, text.contains("\n"), isPrintable(text, allowingNewlines: true),
              !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\t" })
        else { return nil }
        var content = Substring(text)
        var trailingNewlines = 0
        while content.hasSuffix("\n") {
            content = content.dropLast()
            trailingNewlines += 1
        }
        guard !content.isEmpty else { return nil }
        let lines = content.split(separator: "\n", omittingEmptySubsequences: false)
        // A trailing space on the last line would be invisible, and blank-only lines at the start confuse indentation detection.
        if lines.first.map({ $0.allSatisfy { $0 == " " } }) == true { return nil }
        var header = "|"
        if lines.first?.first == " " { header += String(step) }
        switch trailingNewlines {
        case 0: header += "-"
        case 1: break
        default: header += "+"
        }
        let pad = String(repeating: " ", count: indent)
        var out = [header]
        for line in lines { out.append(line.isEmpty ? "" : pad + line) }
        for _ in 1..<max(trailingNewlines, 1) { out.append("") }
        return out
    }

    // MARK: - Inline text

    /// A value on one line: scalars, or collections in flow style.
    static func inlineText(_ value: YAMLValue, flow: Bool) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .float(let number): return floatText(number)
        case .timestamp(let text):
            return isPlainSafe(text, flow: flow) && ScalarResolver.resolvePlain(text) == .timestamp(text)
                ? text : quoted(text)
        case .string(let text): return stringText(text, flow: flow)
        case .sequence, .mapping: return flowText(value)
        }
    }

    /// Any value on one line, collections in flow style.
    static func flowText(_ value: YAMLValue) -> String {
        flowText(value, width: nil)!
    }

    /// A collection in flow style; with `width`, nil when it holds collections or
    /// multi-line text, or is longer than `width`.
    static func flowText(_ value: YAMLValue, width: Int?) -> String? {
        switch value {
        case .sequence(let items):
            if width != nil && items.contains(where: { !$0.isScalar || isMultiLine($0) }) { return nil }
            var parts: [String] = []
            for item in items {
                parts.append(item.isScalar ? inlineText(item, flow: true) : flowText(item))
            }
            let text = "[" + parts.joined(separator: ", ") + "]"
            if let width, text.count > width { return nil }
            return text
        case .mapping(let mapping):
            if width != nil { return nil }
            let parts = mapping.entries.map { entry -> String in
                let key = stringText(entry.key, flow: true)
                return entry.value == .null ? key + ":" : key + ": " + flowText(entry.value)
            }
            return "{" + parts.joined(separator: ", ") + "}"
        default:
            return inlineText(value, flow: true)
        }
    }

    static func isMultiLine(_ value: YAMLValue) -> Bool {
        if case .string(let text) = value { return text.contains("\n") }
        return false
    }

    static func keyText(_ key: String) -> String { stringText(key, flow: false) }

    /// A string as plain text where that reads back as the same string in YAML 1.2
    /// and YAML 1.1, else quoted.
    static func stringText(_ text: String, flow: Bool) -> String {
        if isPlainSafe(text, flow: flow), case .string = ScalarResolver.resolvePlain(text),
           !ScalarResolver.isNonStringInYAML11(text)
        {
            return text
        }
        return quoted(text)
    }

    /// Double quotes, or single quotes when the text holds `"` or `\` but nothing that needs an escape.
    static func quoted(_ text: String) -> String {
        let printable = isPrintable(text, allowingNewlines: false) && !text.contains("\t")
        if printable && (text.contains("\"") || text.contains("\\")) {
            return "'" + text.replacingAll("'", with: "''") + "'"
        }
        return doubleQuoted(text)
    }

    static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{00}": out += "\\0"
            default:
                if isPrintable(scalar) {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    if scalar.value <= 0xFF {
                        out += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    } else if scalar.value <= 0xFFFF {
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out += "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                    }
                }
            }
        }
        return out + "\""
    }

    /// A float that reads back as the same float in YAML 1.2 and 1.1 (which needs a '.').
    package static func floatText(_ number: Double) -> String {
        if number.isNaN { return ".nan" }
        if number.isInfinite { return number < 0 ? "-.inf" : ".inf" }
        var text = "\(number)"
        if !text.contains(".") {
            if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                text.insert(contentsOf: ".0", at: e)
            } else {
                text += ".0"
            }
        }
        return text
    }

    // MARK: - Plain safety

    /// Whether `text` can be written unquoted and read back as the same characters.
    static func isPlainSafe(_ text: String, flow: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if text.hasPrefix("---") || text.hasPrefix("...") { return false }
        let scalars = Array(text.unicodeScalars)
        switch first {
        case ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`":
            return false
        case "-", "?", ":":
            guard scalars.count > 1, scalars[1] != " " else { return false }
            if flow && ",[]{}".unicodeScalars.contains(scalars[1]) { return false }
        default:
            break
        }
        for (index, scalar) in scalars.enumerated() {
            if !isPrintable(scalar) || scalar == "\t" || scalar == "\n" || scalar == "\u{FEFF}" { return false }
            if scalar == ":" && index + 1 < scalars.count {
                let next = scalars[index + 1]
                if next == " " || (flow && ",[]{}".unicodeScalars.contains(next)) { return false }
            }
            if scalar == "#" && index > 0 && scalars[index - 1] == " " { return false }
            if flow && ",[]{}".unicodeScalars.contains(scalar) { return false }
        }
        return true
    }

    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v == 0x09 || v == 0x0A { return true }
        if v < 0x20 || v == 0x7F { return false }
        if v >= 0x80 && v <= 0x9F { return false }
        if v == 0x2028 || v == 0x2029 || v == 0xFEFF || v == 0xFFFE || v == 0xFFFF { return false }
        return true
    }

    static func isPrintable(_ text: String, allowingNewlines: Bool) -> Bool {
        text.unicodeScalars.allSatisfy { isPrintable($0) && (allowingNewlines || $0 != "\n") }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
