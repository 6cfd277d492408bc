import Testing
@testable import FolioFormat

@Suite struct FrontMatterTests {
    func layout(_ text: String) throws -> FrontMatterLayout {
        let bytes = Array(text.utf8)
        let result: Result<FrontMatterLayout, FormatError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FormatError) in try FrontMatter.layout(of: buffer) }
        }
        return try result.get()
    }

    @Test func splitsOpenerYAMLCloserAndBody() throws {
        let l = try layout("---\ntitle: A\n---\nBody\n")
        #expect(l.opener == 0..<4)
        #expect(l.yaml == 4..<13)
        #expect(l.closer == 13..<17)
        #expect(l.body == 17..<22)
        #expect(!l.hasBOM && l.lineEnding == .lf)
    }

    @Test func keepsBOMAndCRLF() throws {
        let l = try layout("\u{FEFF}---\r\ntitle: A\r\n---\r\nBody\r\n")
        #expect(l.hasBOM)
        #expect(l.lineEnding == .crlf)
        #expect(l.opener == 3..<8)
        #expect(l.yaml == 8..<18)
        #expect(l.body.lowerBound == 23)
    }

    @Test func acceptsTrailingBlanksAndDotsCloser() throws {
        let l = try layout("---  \ntitle: A\n... \nBody")
        #expect(l.yaml == 6..<15)
        #expect(l.body == 20..<24)
    }

    @Test func fileWithoutFrontMatterIsAllBody() throws {
        for text in ["# Note\n", "----\nnot front matter\n---\n", "--- title\n---\n", ""] {
            let l = try layout(text)
            #expect(!l.hasFrontMatter)
            #expect(l.body == 0..<text.utf8.count)
        }
    }

    @Test func emptyFrontMatter() throws {
        let l = try layout("---\n---\nBody")
        #expect(l.yaml == 4..<4)
        let document = try Document(text: "---\n---\nBody")
        #expect(document.fields.isEmpty)
        #expect(document.body == "Body")
    }

    @Test func unclosedFrontMatterIsAnErrorNotABody() {
        #expect {
            _ = try layout("---\ntitle: A\nBody without a closing line\n")
        } throws: { error in
            let error = error as! FormatError
            return error.kind == .frontMatterNotClosed && error.location.line == 1 && error.location.column == 1
        }
    }

    @Test func bodyBytesAreNeverTouched() throws {
        let text = "---\r\na: 1\r\n---\r\n\u{FEFF}odd\tbody\r\nmixed\nendings\r"
        let document = try Document(text: text)
        #expect(document.bytes == Array(text.utf8))
        #expect(document.body == "\u{FEFF}odd\tbody\r\nmixed\nendings\r")
    }
}
