extension YAMLValue {
    /// The value as JSON: mappings keep their key order; timestamps are strings;
    /// `.inf`, `-.inf` and `.nan`, which JSON cannot hold, are written as those strings.
    /// - Parameter indent: spaces per level for pretty output, or `nil` for one line.
    public func json(indent: Int? = 2) -> String {
        var out = ""
        writeJSON(to: &out, indent: indent, level: 0)
        return out
    }

    private func writeJSON(to out: inout String, indent: Int?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .float(let number): out += Self.jsonNumber(number)
        case .string(let text), .timestamp(let text): Self.writeJSONString(text, to: &out)
        case .sequence(let items):
            writeJSONContainer(
                items, open: "[", close: "]", to: &out, indent: indent, level: level
            ) { item, out in item.writeJSON(to: &out, indent: indent, level: level + 1) }
        case .mapping(let mapping):
            writeJSONContainer(
                mapping.entries, open: "{", close: "}", to: &out, indent: indent, level: level
            ) { entry, out in
                Self.writeJSONString(entry.key, to: &out)
                out += indent == nil ? ":" : ": "
                entry.value.writeJSON(to: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeJSONContainer<Element>(
        _ elements: [Element], open: String, close: String, to out: inout String, indent: Int?, level: Int,
        writeElement: (Element, inout String) -> Void
    ) {
        out += open
        guard !elements.isEmpty else { return out += close }
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: " ", count: indent * (level + 1)) }
            writeElement(element, &out)
        }
        if let indent { out += "\n" + String(repeating: " ", count: indent * level) }
        out += close
    }

    static func jsonNumber(_ number: Double) -> String {
        if number.isNaN { return "\".nan\"" }
        if number.isInfinite { return number < 0 ? "\"-.inf\"" : "\".inf\"" }
        return "\(number)"
    }

    static func writeJSONString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
