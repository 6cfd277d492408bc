import Testing
@testable import FolioMerge

/// A line of prose cut into sentences: where a sentence ends and where it does not.
@Suite struct SentencesTests {
    func texts(_ line: String) -> [String] { Sentences(line).sentences.map(\.text) }

    @Test func sentencesEndAtAStopAndSpace() {
        #expect(texts("It was born as a way to use yesterday's bread. Today it is served in every Florentine trattoria.")
                == ["It was born as a way to use yesterday's bread.", "Today it is served in every Florentine trattoria."])
        #expect(texts("Really?! Yes… Then \"stop.\" And (so.) Done") == ["Really?!", "Yes…", "Then \"stop.\"", "And (so.)", "Done"])
    }

    @Test func abbreviationsDecimalsInitialsAndLowercaseDoNotEndOne() {
        #expect(texts("Add 1.5 kg, e.g. flour. Then J. R. R. Tolkien reads, ecc. e poi.") == ["Add 1.5 kg, e.g. flour.", "Then J. R. R. Tolkien reads, ecc. e poi."])
        #expect(texts("Wait... then go. Visit example.com now.") == ["Wait... then go.", "Visit example.com now."])
    }

    @Test func italianEmojiAndCJK() {
        #expect(texts("Buonissimo! 😋 Si serve tiepida. Perché no?") == ["Buonissimo!", "😋 Si serve tiepida.", "Perché no?"])
        #expect(texts("今日は晴れ。明日は雨？ そうです。") == ["今日は晴れ。", "明日は雨？", "そうです。"])
    }

    @Test func theLineIsPutBackAsWritten() {
        for line in ["  - Boil.  Salt it.", "1. Mix.\tRest. ", "> Quote. More", "No stop at all", "今日は晴れ。明日", ""] {
            #expect(Sentences(line).text == line, "\(line)")
        }
        #expect(Sentences("  - Boil. Salt.").prefix == "  - " && Sentences("12) Boil.").prefix == "12) ")
    }
}
