/// Reads the quote text format in which each quote stands between `#-` and `-#`:
/// line breaks inside a quote become spaces, and empty quotes are skipped. A quote
/// that is never closed is not a quote (the tutorial's reader drops it too), but it is
/// reported, so that no text is passed over in silence.
public enum QuoteImport {
    /// The quotes in `text`, in order.
    public static func quotes(in text: String) -> [Quote] { read(text).quotes }

    /// The quotes in `text`, and where the `#-` of a quote that is never closed stands
    /// (1-based line and column, in characters), if there is one.
    public static func read(_ text: String) -> (quotes: [Quote], unclosedAt: (line: Int, column: Int)?) {
        var quotes: [Quote] = []
        var rest = Substring(text)
        while let open = rest.range(of: "#-") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "-#") else {
                let before = text[..<open.lowerBound]
                let line = before.count { $0 == "\n" || $0 == "\r\n" } + 1
                let column = before.distance(from: before.lastIndex { $0 == "\n" || $0 == "\r\n" }.map(before.index(after:)) ?? before.startIndex, to: before.endIndex) + 1
                return (quotes, (line, column))
            }
            let words = rest[..<close.lowerBound].split(whereSeparator: \.isWhitespace)
            if !words.isEmpty { quotes.append(Quote(text: words.joined(separator: " "))) }
            rest = rest[close.upperBound...]
        }
        return (quotes, nil)
    }
}
