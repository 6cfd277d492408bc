import FolioShared

/// `KEY=file` or `KEY=copy`, as `folio resolve --take` takes it: which side a field (or
/// `body`) of a conflict copy is taken from.
struct FieldChoice: ArgumentValue {
    var key: String
    var side: ConflictResolution.Side

    static func read(_ text: String, _ format: PlainFormat) -> FieldChoice? {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
              let side = ConflictResolution.Side(rawValue: String(text[text.index(after: equals)...]))
        else { return nil }
        return FieldChoice(key: String(text[..<equals]), side: side)
    }

    static func expected(_ format: PlainFormat) -> String? { "KEY=file or KEY=copy" }
}
