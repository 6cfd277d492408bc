/// The help's option list, made from the declarations.
extension ArgumentSpec {
    /// `options:` and a line per flag and option: its synopsis, its help, what its value
    /// needs (a duration's unit and range) and its default; nil when there are none.
    var optionList: String? {
        let entries = flags.map { (synopsis: $0.name, text: $0.help) } + options.map { option in
            var text = option.help
            if option.isRequired { text += " (required)" }
            if let expected = option.expected, expected != option.valueName { text += "; \(expected)" }
            if let defaultText = option.defaultText { text += "; default \(defaultText)" }
            return (synopsis: option.synopsis, text: text)
        }
        guard !entries.isEmpty else { return nil }
        let column = min(entries.map(\.synopsis.count).max() ?? 0, 24) + 4
        let lines = entries.map { entry -> String in
            let head = "  " + entry.synopsis
            // A long synopsis puts its text on the next line, under the others'.
            let start = head.count + 2 <= column ? head.padding(toLength: column, withPad: " ", startingAt: 0) : head + "\n" + String(repeating: " ", count: column)
            return start + Self.wrapped(entry.text, width: 80 - column, indent: column)
        }
        return "options:\n" + lines.joined(separator: "\n")
    }

    /// `text` broken into lines of at most `width` characters (a longer word stays
    /// whole), each after the first indented by `indent` spaces.
    static func wrapped(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = [""]
        for word in text.split(separator: " ") {
            if lines[lines.count - 1].isEmpty {
                lines[lines.count - 1] = String(word)
            } else if lines[lines.count - 1].count + 1 + word.count > width {
                lines.append(String(word))
            } else {
                lines[lines.count - 1] += " " + word
            }
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
