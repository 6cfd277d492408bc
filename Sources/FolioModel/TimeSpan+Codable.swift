/// A duration is coded as recipes write it (`1h30m`); read from seconds or any form
/// ``TimeSpan/init(_:)-(String)`` parses.
extension TimeSpan: Codable {
    /// Reads a whole number of seconds, or a duration's text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Int.self) {
            self.init(seconds: seconds)
            return
        }
        let text = try container.decode(String.self)
        guard let span = TimeSpan(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a duration: write it as 15m or 1h30m")
        }
        self = span
    }

    /// Writes the duration's text (`1h30m`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
