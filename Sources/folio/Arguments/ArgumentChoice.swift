/// A value that is one of a fixed set of words (`--conflict copy|markers`): its cases'
/// raw values are the choices the usage line lists and the parser allows.
protocol ArgumentChoice: ArgumentValue, CaseIterable, RawRepresentable<String> where Format == PlainFormat {}

extension ArgumentChoice {
    static func read(_ text: String, _ format: PlainFormat) -> Self? { Self(rawValue: text) }
    static func expected(_ format: PlainFormat) -> String? { nil }
    static var choices: [String]? { allCases.map(\.rawValue) }
}
