import Testing
@testable import FolioStore

@Suite struct TextFoldingTests {
    @Test func foldsCaseAndDiacritics() {
        #expect(TextFolding.words("Perché UOVA, Pâté-Crème; ß ÆON straße 42") == ["perche", "uova", "pate", "creme", "ss", "aeon", "strasse", "42"])
        #expect(TextFolding.words("Cafe\u{301} naïve") == ["cafe", "naive"])
        #expect(TextFolding.folded("  Buy   Milk! ") == "buy milk")
        #expect(TextFolding.words("Доброе утро") == ["доброе", "утро"])
    }

    @Test func uniqueWordsKeepsOneOfEachInFirstOrder() {
        var words: [String] = []
        var text = String(repeating: "Uova uova UOVA perché perche guanciale ", count: 200) + (0..<600).map { "w\($0)" }.joined(separator: " ")
        text.withUTF8 { TextFolding.uniqueWords(utf8: $0, into: &words) }
        #expect(Array(words.prefix(3)) == ["uova", "perche", "guanciale"])
        #expect(words.count == 603)
        #expect(Set(words).count == words.count)
    }
}
