import Testing
@testable import FolioFormat

@Suite struct YAMLParserTests {
    func value(_ text: String) throws -> YAMLValue { try YAML.parse(text).value }

    @Test func frontMatterShapes() throws {
        let text = """
            title: Pasta alla Carbonara   # the classic
            tags: [pasta, italian]
            ingredients:
            - name: Spaghetti
              quantity: 400g
            -   name: Uova
                quantity: 4
            steps:
              - Boil.
              - >-
                Cook until
                al dente.
            meta: {a: 1, b: [x, "y"], c}
            notes: |2
                indented first line
              second
            """
        #expect(try value(text) == .mapping([
            "title": .string("Pasta alla Carbonara"),
            "tags": .sequence([.string("pasta"), .string("italian")]),
            "ingredients": .sequence([
                .mapping(["name": .string("Spaghetti"), "quantity": .string("400g")]),
                .mapping(["name": .string("Uova"), "quantity": .int(4)]),
            ]),
            "steps": .sequence([.string("Boil."), .string("Cook until al dente.")]),
            "meta": .mapping(["a": .int(1), "b": .sequence([.string("x"), .string("y")]), "c": .null]),
            // The end of the text ends the last line, as a line break would (as libfyaml and the suite do).
            "notes": .string("  indented first line\nsecond\n"),
        ]))
    }

    @Test func flowCollectionsSpanLines() throws {
        #expect(try value("tags: [\n  a,\n  b, # why\n  ]\nm: {\n  k: v }\n")
            == .mapping(["tags": .sequence([.string("a"), .string("b")]), "m": .mapping(["k": .string("v")])]))
    }

    /// Hugo's docs close a multi-line `[` at its key's column, as PyYAML, ruamel.yaml
    /// and Go's yaml accept; content at that column stays refused (VJP3-00).
    @Test func aFlowCollectionClosesAtItsKeysColumn() throws {
        #expect(try value("aliases: [\n  /old,\n  /older\n]\ntags: {\n  a: 1\n}\n") == .mapping([
            "aliases": .sequence([.string("/old"), .string("/older")]), "tags": .mapping(["a": .int(1)]),
        ]))
        #expect(try value("outer:\n  list: [\n    a\n  ]\n  next: 1\n") == .mapping(["outer": .mapping(["list": .sequence([.string("a")]), "next": .int(1)])]))
        #expect(throws: FormatError.self) { try value("aliases: [\n  /old,\n/older\n]\n") }
        #expect(throws: FormatError.self) { try value("outer:\n  list: [\n    a\n ]\n") }
    }

    @Test func implicitPairsInFlowSequences() throws {
        #expect(try value("[a: 1, b]") == .sequence([.mapping(["a": .int(1)]), .string("b")]))
    }

    @Test func documentMarkers() throws {
        #expect(try value("---\na: 1\n...\n# trailing comment\n") == .mapping(["a": .int(1)]))
        #expect(try YAML.parse("# only a comment\n").root == nil)
        #expect(try value("---\n") == .null)
    }

    @Test func quotedScalarsUnescapeAndFold() throws {
        #expect(try value(#"a: "tab\there \u00e9 \x41 \"q\" \\ \/ \N \_""#)
            == .mapping(["a": .string("tab\there é A \"q\" \\ / \u{85} \u{A0}")]))
        #expect(try value("a: 'it''s'\nb: \"one\n  two\\\n  three\n\n  four\"\n")
            == .mapping(["a": .string("it's"), "b": .string("one twothree\nfour")]))
    }

    @Test func blockScalarChompingAndFolding() throws {
        #expect(try value("a: |\n  x\n\n\nb: |-\n  x\n\nc: |+\n  x\n\n") == .mapping([
            "a": .string("x\n"), "b": .string("x"), "c": .string("x\n\n"),
        ]))
        // A normal line, empty lines, then a more-indented line: the line break before
        // the more-indented line is kept (YAML 1.2 l-nb-diff-lines; PyYAML agrees).
        #expect(try value("done: >\n a\n\n  b\n") == .mapping(["done": .string("a\n\n b\n")]))
    }

    @Test func nodesRememberWhereAndHowTheyWereWritten() throws {
        let tree = try YAML.parse("title: 'A'\ntags:\n  - x\nm: {k: 1}\n")
        let root = try #require(tree.root)
        let title = try #require(root.pair(forKey: "title"))
        #expect(title.valueNode.scalarStyle == .singleQuoted)
        #expect(title.valueNode.range == 7..<10)
        #expect(title.valueNode.start.line == 1 && title.valueNode.start.column == 8)
        let tags = try #require(root.pair(forKey: "tags"))
        #expect(tags.valueNode.collectionStyle == .block)
        #expect(tags.valueNode.start.line == 3 && tags.valueNode.start.column == 3)
        #expect(root.pair(forKey: "m")?.valueNode.collectionStyle == .flow)
    }

    @Test func commentsAreKept() throws {
        let tree = try YAML.parse("# head\na: 1 # tail\n")
        #expect(tree.comments.map(\.text) == [" head", " tail"])
    }

    @Test func crlfLineEndings() throws {
        #expect(try value("a: 1\r\nb: |\r\n  x\r\n  y\r\n") == .mapping(["a": .int(1), "b": .string("x\ny\n")]))
    }
}
