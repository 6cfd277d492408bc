import Testing
@testable import FolioFormat

/// Each refusal, with its exact line and column (in the Markdown file, front matter
/// starting on line 2) and a message a person can act on.
@Suite struct FormatErrorTests {
    func refusal(_ text: String) -> FormatError? {
        do {
            _ = try Document(text: text, path: "r.md")
            return nil
        } catch {
            return error
        }
    }

    func expectError(
        _ text: String, _ kind: FormatError.Kind, line: Int, column: Int, containing phrase: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let error = refusal(text) else {
            Issue.record("accepted: \(text)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location.line == line && error.location.column == column, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(phrase), "\(error)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("r.md:\(line):\(column): error: "), sourceLocation: sourceLocation)
    }

    /// git's conflict markers in the front matter are said as such, on the marker's line,
    /// not as the YAML they break (a missing ':').
    @Test func gitsConflictMarkersAreSaidAsWhatTheyAre() {
        let merged = "---\ntitle: Soup\n<<<<<<< ours\ntime: 20m\n=======\ntime: 25m\n>>>>>>> theirs\n---\n"
        expectError(merged, .syntax, line: 3, column: 1, containing: "this file holds git's conflict markers (<<<<<<<): finish the merge")
        expectError("---\ntitle: Soup\n=======\n---\n", .syntax, line: 3, column: 1, containing: "conflict markers (=======)")
        // Not a marker: seven signs inside a value, or more than seven then text.
        #expect(refusal("---\ntitle: \"<<<<<<< x\"\n---\n") == nil)
        #expect(refusal("---\ntitle: Soup\n<<<<<<<<x\n---\n")?.message.contains("conflict markers") == false)
    }

    @Test func tabUsedForIndentation() {
        expectError("---\ntags:\n\t- a\n---\n", .tabIndentation, line: 3, column: 1, containing: "tab character used for indentation")
        expectError("---\na:\n  b: 1\n  \tc: 2\n---\n", .tabIndentation, line: 4, column: 3, containing: "replace the tab with spaces")
    }

    @Test func badIndentation() {
        expectError("---\na:\n  b: 1\n c: 2\n---\n", .badIndentation, line: 4, column: 2, containing: "bad indentation")
        expectError("---\na:\n  b:\n    c: 1\n   d: 2\n---\n", .badIndentation, line: 5, column: 4, containing: "bad indentation")
    }

    @Test func unterminatedQuotePointsAtTheOpeningQuote() {
        expectError("---\ntitle: \"Soup\nservings: 2\n---\n", .unterminatedQuote, line: 2, column: 8, containing: "add the closing \"")
        expectError("---\ntitle: 'Soup\n---\n", .unterminatedQuote, line: 2, column: 8, containing: "single-quoted")
    }

    @Test func unterminatedFlowCollectionPointsAtItsOpening() {
        expectError("---\ntags: [pasta, italian\n---\n", .unterminatedFlowCollection, line: 2, column: 7, containing: "add the closing ']'")
        expectError("---\nmeta: {a: 1\n---\n", .unterminatedFlowCollection, line: 2, column: 7, containing: "add the closing '}'")
    }

    @Test func duplicateKeyNamesTheFirstLine() {
        expectError("---\ntitle: A\ntime: 5m\ntitle: B\n---\n", .duplicateKey, line: 4, column: 1, containing: "duplicate key 'title' (first defined on line 2)")
        expectError("---\nm: {a: 1, a: 2}\n---\n", .duplicateKey, line: 2, column: 11, containing: "duplicate key 'a'")
    }

    @Test func mappingValuesAreNotAllowedHere() {
        expectError("---\na: b: c\n---\n", .mappingValueNotAllowed, line: 2, column: 5, containing: "mapping values are not allowed here")
        expectError("---\na: b\n  c: d\n---\n", .mappingValueNotAllowed, line: 3, column: 4, containing: "mapping values are not allowed here")
    }

    @Test func frontMatterNotClosed() {
        expectError("---\ntitle: A\n\n# Body\n", .frontMatterNotClosed, line: 1, column: 1, containing: "front matter is not closed")
    }

    @Test func invalidUTF8GivesTheByteOffset() throws {
        var bytes = Array("---\ntitle: caf".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\n---\n".utf8)
        #expect {
            _ = try Document(bytes: bytes, path: "r.md")
        } throws: { error in
            let error = error as! FormatError
            return error.kind == .invalidUTF8 && error.location.line == 2 && error.location.column == 11
                && error.message.contains("byte offset 14") && error.message.contains("save the file as UTF-8")
        }
    }

    @Test func featuresOutsideTheSubsetAreRefusedNotMisread() {
        let cases: [(String, Int, Int, String)] = [
            ("---\nbase: &b 1\n---\n", 2, 7, "anchors ('&name')"),
            ("---\na: 1\nb: *a\n---\n", 3, 4, "aliases ('*name')"),
            ("---\nn: !!str 1\n---\n", 2, 4, "tags ('!tag')"),
            ("---\n%YAML 1.2\n---\n", 2, 1, "directives ('%YAML', '%TAG')"),
            ("---\n? complex\n: value\n---\n", 2, 1, "explicit keys ('? key')"),
            ("---\n[a, b]: c\n---\n", 2, 7, "complex keys (a list or mapping used as a key)"),
            ("---\n{a: 1}: c\n---\n", 2, 7, "complex keys (a list or mapping used as a key)"),
        ]
        for (text, line, column, what) in cases {
            expectError(text, .unsupported, line: line, column: column, containing: "\(what) are not supported by Folio's YAML subset")
        }
    }

    @Test func severalDocumentsAreRefused() throws {
        #expect {
            _ = try YAML.parse("a: 1\n---\nb: 2\n")
        } throws: { error in
            (error as? FormatError)?.kind == .unsupported && (error as? FormatError)?.location.line == 2
        }
    }

    @Test func frontMatterMustBeAMapping() {
        expectError("---\n- a\n- b\n---\n", .frontMatterNotMapping, line: 2, column: 1, containing: "must be 'key: value' lines")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        // The root mapping is the first level, so the error is at the 128th '[' (columns 4 on).
        expectError("---\nx: \(deep)\n---\n", .limitExceeded, line: 2, column: 3 + YAML.maximumDepth, containing: "nested more than \(YAML.maximumDepth) levels")
        let deepBlock = (0..<300).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n")
        #expect(refusal("---\n\(deepBlock) 1\n---\n")?.kind == .limitExceeded)
    }

    @Test func hugeScalarIsRefusedBySize() {
        let huge = String(repeating: "x", count: 50 << 20)
        expectError("---\nbody: \(huge)\n---\n", .limitExceeded, line: 2, column: 1, containing: "Folio reads at most")
    }

    @Test func largeScalarUnderTheLimitParses() throws {
        let large = String(repeating: "abc ", count: 1 << 20)
        let document = try Document(text: "---\nnotes: \"\(large)\"\n---\n")
        #expect(document.fields["notes"]?.stringValue?.utf8.count == 4 << 20)
    }

    @Test func renderedErrorShowsTheLineAndACaret() {
        let error = refusal("---\ntitle: A\ntags: [a, b\n---\n")!
        #expect(error.rendered == """
            r.md:3:7: error: unterminated flow sequence: add the closing ']' for this '['
            tags: [a, b
                  ^
            """)
    }
}
