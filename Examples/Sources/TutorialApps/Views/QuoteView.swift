#if canImport(SwiftUI)
import Folio
import SwiftUI

/// A quote at random, and another on a tap.
public struct QuoteView: View {
    let app: QuoteApp
    @State private var quote: Quote?

    /// The view of `app`.
    public init(app: QuoteApp) { self.app = app }

    /// The quote, or the app's message ("Failed to load", "No phrases found").
    public var body: some View {
        VStack(spacing: 24) {
            Text(quote?.text ?? app.message ?? "").font(.title2).multilineTextAlignment(.center)
            Button("Another") { quote = app.randomQuote() }
        }
        .padding()
        .onAppear { quote = app.randomQuote() }
    }
}
#endif
