import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel

@Suite struct QuoteImportTests {
    @Test func readsDelimitedQuotesFoldingLineBreaks() {
        let text = "#- Stay hungry,\nstay foolish. -#\n#-   -#\nnoise\n#- Simplicity is prerequisite\r\n  for reliability. -#"
        #expect(QuoteImport.quotes(in: text).map(\.text) == ["Stay hungry, stay foolish.", "Simplicity is prerequisite for reliability."])
        #expect(QuoteImport.quotes(in: "no quotes here").isEmpty)
    }

    @Test func aQuoteNeverClosedIsNotImportedButReported() {
        let (quotes, unclosed) = QuoteImport.read("#- a -# #- b")
        #expect(quotes.map(\.text) == ["a"])
        #expect(unclosed.map { [$0.line, $0.column] } == [1, 9])
        let second = QuoteImport.read("#- a -#\n  #- b\nc")
        #expect(second.unclosedAt.map { [$0.line, $0.column] } == [2, 3])
        #expect(QuoteImport.read("#- a -#").unclosedAt == nil)
    }
}
