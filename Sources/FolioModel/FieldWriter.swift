import FolioFormat

/// Writes a typed view's changed fields into its document with minimal edits:
/// one key's lines, one list item, or one section's list lines.
struct FieldWriter {
    var document: Document

    /// Sets or (with nil) removes a front-matter field.
    mutating func set(_ key: String, _ value: YAMLValue?) throws(FormatError) {
        if let value { try document.setValue(value, forKey: key) } else { try document.removeValue(forKey: key) }
    }

    /// Changes a front-matter list item by item where it can: items replaced in
    /// place, appended at the end, or removed; otherwise the whole list.
    mutating func setList(_ key: String, from old: [YAMLValue], to new: [YAMLValue]) throws(FormatError) {
        guard old != new else { return }
        guard case .sequence? = document[key], !old.isEmpty, !new.isEmpty else {
            return try set(key, .sequence(new))
        }
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let removed = old.count - prefix - suffix, added = new.count - prefix - suffix
        if removed == added {
            for i in prefix..<(prefix + added) { try document.setItem(new[i], at: i, inListForKey: key) }
        } else if removed == 0 && suffix == 0 {
            for item in new[prefix...] { try document.appendItem(item, toListForKey: key) }
        } else if added == 0 {
            for _ in 0..<removed { try document.removeItem(at: prefix, fromListForKey: key) }
        } else {
            try set(key, .sequence(new))
        }
    }

    /// Rewrites the list of the body section whose title is one of `titles`: unchanged
    /// items keep their lines; a missing section is added at the end of the body.
    mutating func setSectionList(titles: [String], heading: String, from old: [String], to new: [String], numbered: Bool) throws(FormatError) {
        guard old != new else { return }
        let body = document.layout.body
        let lines = new.enumerated().map { index, text in (numbered ? "\(index + 1). " : "- ") + text }
        guard let section = Recipe.section(in: document, titles: titles) else {
            let text = document.body
            let separator = text.isEmpty ? "" : text.hasSuffix("\n\n") ? "" : text.hasSuffix("\n") ? "\n" : "\n\n"
            try document.replaceBody(body.upperBound..<body.upperBound, with: separator + "## \(heading)\n\n" + lines.joined(separator: "\n") + "\n")
            return
        }
        let items = Markdown.listItems(in: document.bytes, range: section.contentRange)
        var output: [String] = []
        for (index, text) in new.enumerated() {
            if index < items.count && index < old.count && old[index] == text && items[index].isNumbered == numbered {
                output.append(String(decoding: document.bytes[items[index].range], as: UTF8.self))
            } else {
                output.append(lines[index])
            }
        }
        if let first = items.first, let last = items.last {
            try document.replaceBody(first.range.lowerBound..<last.range.upperBound, with: output.joined(separator: "\n"))
        } else {
            let at = section.headingRange.upperBound
            try document.replaceBody(at..<at, with: "\n" + output.joined(separator: "\n") + "\n")
        }
    }
}

/// The first key of `keys` the document has, else the first key.
func firstKey(_ keys: [String], in document: Document) -> String {
    keys.first { document[$0] != nil } ?? keys[0]
}
