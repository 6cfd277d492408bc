/// Reads the quote text format in which each quote stands between `#-` and `-#`:
/// line breaks inside a quote become spaces, and empty quotes are skipped.
public enum QuoteImport {
    /// The quotes in `text`, in order.
    public static func quotes(in text: String) -> [Quote] {
        var quotes: [Quote] = []
        var rest = Substring(text)
        while let open = rest.range(of: "#-") {
            rest = rest[open.upperBound...]
            let close = rest.range(of: "-#")
            let body = close.map { rest[..<$0.lowerBound] } ?? rest
            let words = body.split(whereSeparator: \.isWhitespace)
            if !words.isEmpty { quotes.append(Quote(text: words.joined(separator: " "))) }
            guard let close else { break }
            rest = rest[close.upperBound...]
        }
        return quotes
    }
}
