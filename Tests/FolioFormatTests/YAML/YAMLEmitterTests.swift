import Testing
@testable import FolioFormat

@Suite struct YAMLEmitterTests {
    @Test(arguments: [
        ("pasta", "pasta"), ("no", "\"no\""), ("on", "\"on\""), ("Y", "\"Y\""), ("12:30", "\"12:30\""),
        ("2026-11-30", "\"2026-11-30\""), ("true", "\"true\""), ("42", "\"42\""), ("0x1F", "\"0x1F\""),
        ("", "\"\""), ("a: b", "\"a: b\""), ("x #y", "\"x #y\""), ("- a", "\"- a\""), ("-a", "-a"),
        ("#tag", "\"#tag\""), ("say \"hi\"", "say \"hi\""), ("back\\slash", "back\\slash"), ("\"q\" first", "'\"q\" first'"),
        ("'s", "\"'s\""), ("a\\b: c", "'a\\b: c'"),
        ("tab\there", "\"tab\\there\""), ("perché", "perché"), ("1/2 cup", "1/2 cup"), (" lead", "\" lead\""),
        ("bell\u{07}", "\"bell\\x07\""), ("---", "\"---\""), ("it's", "it's"), ("1_000", "\"1_000\""),
    ])
    func scalarsAreQuotedOnlyWhereNeeded(text: String, written: String) {
        #expect(YAMLEmitter.stringText(text, flow: false) == written)
    }

    @Test func flowItemsQuoteFlowIndicators() {
        #expect(YAMLEmitter.flowText(.sequence([.string("a, b"), .string("[x]"), .string("c")])) == "[\"a, b\", \"[x]\", c]")
    }

    @Test func floatsReadBackAsFloatsInBothYAMLVersions() {
        #expect(YAMLEmitter.floatText(1e20) == "1.0e+20")
        #expect(YAMLEmitter.floatText(5) == "5.0")
        #expect(YAMLEmitter.floatText(-.infinity) == "-.inf")
        #expect(YAMLEmitter.floatText(.nan) == ".nan")
    }

    @Test func longOrNestedListsAreWrittenInBlockStyle() {
        let long = YAMLValue.sequence((1...12).map { .string("ingredient \($0)") })
        #expect(YAMLEmitter.entryLines(key: "items", value: long, indent: 0).count == 13)
        #expect(YAMLEmitter.entryLines(key: "e", value: .sequence([]), indent: 0) == ["e: []"])
        #expect(YAMLEmitter.entryLines(key: "e", value: .mapping([:]), indent: 0) == ["e: {}"])
    }

    @Test func multiLineTextKeepsItsTrailingNewlines() throws {
        for text in ["a\nb", "a\nb\n", "a\nb\n\n\n", " lead\nb\n", "a\n\n  b\n"] {
            let document = try Document(fields: ["t": .string(text)], body: "")
            #expect(document.fields["t"] == .string(text), "\(document.text)")
            #expect(document.text.contains("t: |"), "\(document.text)")
        }
    }
}
