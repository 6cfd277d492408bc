/// Text as given: a title, a label, a folder.
extension String: ArgumentValue {
    static func read(_ text: String, _ format: PlainFormat) -> String? { text }
    static func expected(_ format: PlainFormat) -> String? { nil }
}
