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

    /// The word index's keys are the words' hashes: the same words, in the same order,
    /// as the strings, and a query word folded as a query folds it hashes alike.
    @Test func wordHashesAreTheUniqueWordsHashed() {
        for sample in ["Perché UOVA, Pâté-Crème; ß ÆON straße 42 uova", "Доброе утро, доброе", "", "a a a", "Cafe\u{301} naïve café"] {
            var text = sample, words: [String] = [], hashes: [UInt64] = []
            var pairs: [UInt64] = [], hashPairs: [UInt64] = []
            text.withUTF8 { TextFolding.uniqueWords(utf8: $0, into: &words, pairs: &pairs) }
            text.withUTF8 { TextFolding.uniqueWordHashes(utf8: $0, into: &hashes, pairs: &hashPairs) }
            #expect(hashes == words.map(TextFolding.wordHash), "\(sample)")
            #expect(hashPairs == pairs, "\(sample)")
            #expect(Set(TextFolding.words(sample).map(TextFolding.wordHash)) == Set(hashes), "\(sample)")
        }
    }
}
