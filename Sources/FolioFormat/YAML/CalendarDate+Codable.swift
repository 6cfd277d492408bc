/// A date is coded as front matter writes it, `YYYY-MM-DD`, in any format (JSON too).
extension CalendarDate: Codable {
    /// Reads `YYYY-MM-DD` (or a date-time, whose day is taken).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = YAMLValue.string(text).calendarDate else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a date: write it as YYYY-MM-DD")
        }
        self = date
    }

    /// Writes `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
