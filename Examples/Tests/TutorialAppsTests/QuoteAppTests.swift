import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct QuoteAppTests {
    @Test func phrasesAreImportedAndOneIsPickedAtRandom() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = QuoteApp(store: store)
        #expect(app.randomQuote() == nil && app.message == "No phrases found")
        await app.importPhrases(from: folder + "/missing.txt")
        #expect(app.message == "Failed to load")
        try Data("nothing here".utf8).write(to: URL(fileURLWithPath: folder + "/empty.txt"))
        await app.importPhrases(from: folder + "/empty.txt")
        #expect(app.message == "No phrases found")
        try Data("#- Stay hungry,\nstay foolish. -#\n#- Less is more. -#\n#- never closed".utf8).write(to: URL(fileURLWithPath: folder + "/phrases.txt"))
        await app.importPhrases(from: folder + "/phrases.txt")
        #expect(app.message == nil)
        var seen = Set<String>()
        for _ in 0..<200 { seen.insert(try #require(app.randomQuote()).text) }
        #expect(seen == ["Stay hungry, stay foolish.", "Less is more."])
    }
}
