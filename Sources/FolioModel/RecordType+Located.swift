import FolioFormat

extension RecordType {
    /// The problems of the record in `document` (at `path`) as this type sees it, each
    /// placed in the file: a value that does not decode at that value (through the
    /// decoding error's coding path, `items[2].amount` too); a required field that is
    /// missing at the front matter's start; one of the type's own ``RecordType/problems``
    /// at the value of the field its message begins with (`feel 9 is not from 1 to 5`
    /// is placed at `feel:`), else at the file's start.
    public static func locatedProblems(in document: Document, path: String) -> [ValidationIssue] {
        let value: Self
        do { value = try Self(document: document) } catch {
            let codingPath = Validation.codingPath(of: error)
            return [ValidationIssue(location: Validation.location(of: codingPath, in: document, path: path), message: RecordReadError.describe(error), field: codingPath.first?.stringValue)]
        }
        let keys = document.frontMatterRoot?.pairs.map(\.key) ?? []
        return value.problems.map { message in
            let field = Validation.field(startingWith: message, among: keys)
            return ValidationIssue(location: Validation.location(of: field, in: document, path: path), message: message, field: field.first?.stringValue)
        }
    }
}

extension Validation {
    /// Where in the record a decoding error is: its coding path, and the key when one is
    /// missing.
    static func codingPath(of error: any Error) -> [any CodingKey] {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context.codingPath
        case .keyNotFound(let key, let context): context.codingPath + [key]
        default: []
        }
    }

    /// The front-matter key `message` names first (`feel 9 is…`, `feel: …`, `feel.`),
    /// the longest of `keys` that matches; nil when it names none.
    static func field(startingWith message: String, among keys: [String]) -> [any CodingKey] {
        let named = keys.filter { key in
            guard message.hasPrefix(key) else { return false }
            let next = message.dropFirst(key.count).first
            return next == nil || next == " " || next == ":" || next == "." || next == "[" || next == ","
        }
        return named.max { $0.count < $1.count }.map { [FieldKey(stringValue: $0)] } ?? []
    }

    /// Where the value at `codingPath` is in `document`'s front matter: as deep as the
    /// path can be followed (a key, then a list's item), else the file's start.
    static func location(of codingPath: [any CodingKey], in document: Document, path: String) -> SourceLocation {
        var node = document.frontMatterRoot
        var found: SourceLocation?
        for key in codingPath {
            guard let current = node else { break }
            if let index = key.intValue, case .sequence = current.content {
                guard current.items.indices.contains(index) else { break }
                node = current.items[index]
            } else if let pair = current.pair(forKey: key.stringValue) {
                node = pair.valueNode
            } else {
                break
            }
            found = node?.start
        }
        var location = found ?? SourceLocation(path: path, line: 1, column: 1, offset: 0)
        location.path = path
        return location
    }
}

/// A front-matter key as a coding key, to place a message the way a decoding error is.
private struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
