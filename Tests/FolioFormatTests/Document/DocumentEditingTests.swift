import Testing
@testable import FolioFormat

@Suite struct DocumentEditingTests {
    let carbonara = """
        ---
        title: Pasta alla Carbonara   # the classic
        time: 15m
        servings: 4
        tags: [pasta, italian]
        ingredients:
          - 400g Spaghetti
          - 4 Uova
        quote: "Buono"
        ---
        Autentico piatto di pasta italiano.
        """

    @Test func settingAScalarKeepsTheCommentAndTheRest() throws {
        var document = try Document(text: carbonara)
        try document.setValue(.string("20m"), forKey: "time")
        try document.setValue(.string("Pasta!"), forKey: "title")
        try document.setValue(.string("Ottimo"), forKey: "quote")
        #expect(document.text == carbonara
            .replacingOccurrences("time: 15m", "time: 20m")
            .replacingOccurrences("title: Pasta alla Carbonara   #", "title: Pasta!   #")
            .replacingOccurrences("\"Buono\"", "\"Ottimo\""))
    }

    @Test func addingAKeyAppendsOneLine() throws {
        var document = try Document(text: carbonara)
        try document.setValue(.string("yes"), forKey: "vegetarian")
        #expect(document.text == carbonara.replacingOccurrences("quote: \"Buono\"\n", "quote: \"Buono\"\nvegetarian: \"yes\"\n"))
    }

    @Test func removingAKeyRemovesOnlyItsLines() throws {
        var document = try Document(text: carbonara)
        try document.removeValue(forKey: "ingredients")
        #expect(document.text == carbonara.replacingOccurrences("ingredients:\n  - 400g Spaghetti\n  - 4 Uova\n", ""))
    }

    @Test func listItemsInBothStyles() throws {
        var document = try Document(text: carbonara)
        try document.appendItem(.string("quick"), toListForKey: "tags")
        try document.appendItem(.string("200g Guanciale"), toListForKey: "ingredients")
        try document.removeItem(at: 0, fromListForKey: "tags")
        try document.setItem(.string("5 Uova"), at: 1, inListForKey: "ingredients")
        #expect(document.text == carbonara
            .replacingOccurrences("tags: [pasta, italian]", "tags: [italian, quick]")
            .replacingOccurrences("  - 4 Uova\n", "  - 5 Uova\n  - 200g Guanciale\n"))
    }

    @Test func crlfAndBOMAreKept() throws {
        let text = "\u{FEFF}---\r\ntitle: A\r\n---\r\nBody\r\n"
        var document = try Document(text: text)
        try document.setValue(.int(2), forKey: "servings")
        #expect(document.text == "\u{FEFF}---\r\ntitle: A\r\nservings: 2\r\n---\r\nBody\r\n")
    }

    @Test func addingFrontMatterToAPlainNote() throws {
        var document = try Document(text: "# Note\n")
        try document.setValue(.string("Note"), forKey: "title")
        #expect(document.text == "---\ntitle: Note\n---\n# Note\n")
    }

    @Test func editsOfAFlowFrontMatter() throws {
        var document = try Document(text: "---\n{a: 1, b: x}\n---\n")
        try document.setValue(.int(2), forKey: "a")
        try document.setValue(.string("new"), forKey: "c")
        try document.removeValue(forKey: "b")
        #expect(document.text == "---\n{a: 2, c: new}\n---\n")
    }

    @Test func editsThatCannotApplyAreRefused() throws {
        var document = try Document(text: carbonara)
        #expect(throws: FormatError.self) { try document.removeItem(at: 5, fromListForKey: "tags") }
        #expect(throws: FormatError.self) { try document.removeItem(at: 0, fromListForKey: "title") }
        #expect(document.text == carbonara)
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
