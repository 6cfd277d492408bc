/// `KEY=VALUE`, as `folio add --field` takes it: a key before the first `=`, and the
/// text after it (which may hold more `=`, or be empty).
struct FieldAssignment: ArgumentValue {
    var key: String
    var value: String

    static func read(_ text: String, _ format: PlainFormat) -> FieldAssignment? {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        return FieldAssignment(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }

    static func expected(_ format: PlainFormat) -> String? { "KEY=VALUE" }
}
