import Folio
import Foundation
import Observation

/// The random-quote app: phrases written between `#-` and `-#` in a text file are
/// imported as quotes in `quotes/`, and one is shown at random; "Failed to load" when
/// the file cannot be read, "No phrases found" when it holds none.
@MainActor
@Observable
public final class QuoteApp {
    /// The folder's store.
    @ObservationIgnored public let store: Store
    /// What the app shows instead of a quote, when it has none to show.
    public private(set) var message: String?

    /// The app over `store`.
    public init(store: Store) { self.store = store }

    /// Imports the phrases of the text file at `path`.
    public func importPhrases(from path: String) async {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            message = "Failed to load"
            return
        }
        let quotes = QuoteImport.quotes(in: String(decoding: bytes, as: UTF8.self))
        guard !quotes.isEmpty else {
            message = "No phrases found"
            return
        }
        for quote in quotes { await store.dispatch(.addQuote(quote)) }
        message = nil
    }

    /// A quote at random, or nil (and the message says why) when there is none.
    public func randomQuote() -> Quote? {
        guard let record = store.quotes.randomElement() else {
            message = message ?? "No phrases found"
            return nil
        }
        return store.state.quote(at: record.path)
    }
}
