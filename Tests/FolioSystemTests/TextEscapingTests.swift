import Testing
import FolioSystem

/// Names are data: one function writes out every control character a name holds.
@Suite struct TextEscapingTests {
    @Test func controlCharactersInANameAreWrittenOut() {
        #expect(TextEscaping.name("\u{1B}[2J.md") == "\\x1B[2J.md")
        #expect(TextEscaping.name("a\ncopy    injected.md") == "a\\x0Acopy    injected.md")
        #expect(TextEscaping.name("tab\there\r.md") == "tab\\x09here\\x0D.md")
        #expect(TextEscaping.name("del\u{7F}.md") == "del\\x7F.md")
        #expect(TextEscaping.name("csi\u{9B}2J.md") == "csi\\u{9B}2J.md")
        #expect(TextEscaping.name("café ü 日本.md") == "café ü 日本.md")
    }

    @Test func aMessageKeepsItsOwnLinesAndLosesEveryOtherControl() {
        #expect(TextEscaping.text("copy    a.md\ncopy    \u{1B}]0;pwned\u{07}.md") == "copy    a.md\ncopy    \\x1B]0;pwned\\x07.md")
    }
}
