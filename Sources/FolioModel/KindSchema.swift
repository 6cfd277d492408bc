import FolioFormat

/// A kind of record a folder declares in its `folio.yaml`, without Swift: its folder
/// and the fields its records have, each with a type, whether it is required, the
/// values it may take, and a range.
///
/// ```yaml
/// kinds:
///   book:
///     folder: books            # the default: the kind's name with an s
///     fields:
///       title: {type: text, required: true}
///       rating: {type: integer, min: 1, max: 5}
///       status: {values: [reading, finished, abandoned]}
///       started: date          # the type alone
/// ```
public struct KindSchema: Sendable, Hashable {
    /// One declared field.
    public struct Field: Sendable, Hashable {
        /// The field's key.
        public var name: String
        /// Its type, when declared.
        public var type: FieldType?
        /// Whether a record must have it (not empty).
        public var required = false
        /// The values it may take (compared ignoring case), when declared.
        public var values: [String]?
        /// The least a number (or the earliest a date) may be.
        public var minimum: YAMLValue?
        /// The greatest a number (or the latest a date) may be.
        public var maximum: YAMLValue?
    }

    /// The types a field may be declared with, read as the typed views read them.
    public enum FieldType: String, Sendable, Hashable, CaseIterable {
        case text, integer, number, boolean, date, duration, list
    }

    /// The kind.
    public var kind: Kind
    /// The folder its records are in (and new ones go in); a file there without
    /// `kind:` is of this kind.
    public var folder: String
    /// The declared fields, in the file's order.
    public var fields: [Field]
}

/// The kinds a `folio.yaml` declares, and what is wrong in the declaration.
public struct DeclaredKinds: Sendable, Hashable {
    /// The kinds, by name.
    public var schemas: [Kind: KindSchema] = [:]
    /// What `kinds:` gets wrong, located in `folio.yaml` (a declaration that is wrong is
    /// left out, and the rest is used).
    public var problems: [ValidationIssue] = []

    /// No declared kinds.
    public init() {}

    /// The kinds declared under `kinds:` in `folio.yaml`'s document.
    public init(_ document: Document) {
        guard let kinds = document.frontMatterRoot?.pair(forKey: "kinds")?.valueNode else { return }
        func problem(_ node: YAMLNode, _ message: String) {
            problems.append(ValidationIssue(location: node.start, message: message))
        }
        guard case .mapping = kinds.content else {
            problem(kinds, "'kinds:' must map each kind's name to its declaration (kinds: {book: {folder: books, fields: …}})")
            return
        }
        for pair in kinds.pairs {
            let kind = Kind(rawValue: pair.key)
            guard !kind.rawValue.isEmpty, kind != .note else {
                problem(pair.keyNode, "'\(pair.key)' cannot be declared as a kind: give the kind a name other than note")
                continue
            }
            var schema = KindSchema(kind: kind, folder: kind.folder, fields: [])
            let declaration = pair.valueNode
            if declaration.value != .null {
                guard case .mapping = declaration.content else {
                    problem(declaration, "the kind '\(pair.key)' must be declared as a mapping with 'folder:' and 'fields:'")
                    continue
                }
            }
            for entry in declaration.pairs {
                switch entry.key {
                case "folder":
                    guard let folder = entry.valueNode.value.text, Self.isFolderName(folder) else {
                        problem(entry.valueNode, "the folder of '\(pair.key)' must be a relative folder name such as \(kind.folder)")
                        continue
                    }
                    schema.folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
                case "fields":
                    guard case .mapping = entry.valueNode.content else {
                        problem(entry.valueNode, "the fields of '\(pair.key)' must map each field's name to its type or declaration")
                        continue
                    }
                    for field in entry.valueNode.pairs {
                        if let declared = Self.field(field, of: pair.key, problem) { schema.fields.append(declared) }
                    }
                default:
                    problem(entry.keyNode, "unknown key '\(entry.key)' in the kind '\(pair.key)': use folder and fields")
                }
            }
            schemas[kind] = schema
        }
    }

    /// A field's declaration: a type's name, or a mapping of `type`, `required`,
    /// `values`, `min`, `max`.
    private static func field(_ pair: YAMLPair, of kind: String, _ problem: (YAMLNode, String) -> Void) -> KindSchema.Field? {
        var field = KindSchema.Field(name: pair.key)
        let types = KindSchema.FieldType.allCases.map(\.rawValue).joined(separator: ", ")
        func type(_ node: YAMLNode) -> Bool {
            guard let name = node.value.text, let type = KindSchema.FieldType(rawValue: name.lowercased()) else {
                problem(node, "unknown type '\(node.value.text ?? "")' for \(kind).\(pair.key): use one of \(types)")
                return false
            }
            field.type = type
            return true
        }
        switch pair.valueNode.content {
        case .scalar:
            guard pair.valueNode.value != .null else { return field }
            return type(pair.valueNode) ? field : nil
        case .mapping:
            for entry in pair.valueNode.pairs {
                switch entry.key {
                case "type":
                    guard type(entry.valueNode) else { return nil }
                case "required":
                    guard let flag = entry.valueNode.value.boolValue else {
                        problem(entry.valueNode, "'required' of \(kind).\(pair.key) must be true or false")
                        return nil
                    }
                    field.required = flag
                case "values":
                    let values = (entry.valueNode.value.sequenceValue ?? []).compactMap(\.text)
                    guard !values.isEmpty else {
                        problem(entry.valueNode, "'values' of \(kind).\(pair.key) must list the values it may take: values: [a, b]")
                        return nil
                    }
                    field.values = values
                case "min", "max":
                    let bound = entry.valueNode.value
                    guard bound.doubleValue != nil || bound.calendarDate != nil else {
                        problem(entry.valueNode, "'\(entry.key)' of \(kind).\(pair.key) must be a number or a date")
                        return nil
                    }
                    if entry.key == "min" { field.minimum = bound } else { field.maximum = bound }
                default:
                    problem(entry.keyNode, "unknown key '\(entry.key)' for \(kind).\(pair.key): use type, required, values, min and max")
                    return nil
                }
            }
            return field
        default:
            problem(pair.valueNode, "\(kind).\(pair.key) must be a type (\(types)) or a mapping of type, required, values, min and max")
            return nil
        }
    }

    /// A relative folder: no empty, `.` or `..` part, not absolute.
    static func isFolderName(_ text: String) -> Bool {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        return !trimmed.isEmpty && !text.hasPrefix("/") && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Each declared folder's kind, for ``Kind/of(_:path:folders:)``.
    public var folders: [String: Kind] {
        Dictionary(schemas.values.map { ($0.folder, $0.kind) }) { first, _ in first }
    }
}
