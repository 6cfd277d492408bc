import FolioTestSupport
import Testing
@testable import FolioFormat

/// Random documents: canonical emit then parse gives the same data; random minimal
/// edits then parse show exactly the edit, and change only the edited key's lines.
@Suite struct EditPropertyTests {
    @Test func canonicalEmitReadsBackTheSameData() throws {
        let seed = SeededRandom.testSeed()
        var values = RandomValues(random: SeededRandom(seed: seed))
        for round in 0..<2000 {
            let fields = values.mapping(count: 1...8)
            let lineEnding: FrontMatterLayout.LineEnding = values.chance(20) ? .crlf : .lf
            let body = values.chance(50) ? "# Body\n\nText \(round)\n" : ""
            let document: Document
            do {
                document = try Document(fields: fields, body: body, lineEnding: lineEnding)
            } catch {
                Issue.record("seed \(seed) round \(round): canonical text does not parse: \(error)\n\(fields)")
                return
            }
            document.frontMatter.root?._checkInvariants()
            #expect(document.fields == fields, "seed \(seed) round \(round):\n\(document.text)")
            #expect(document.body == body)
            if document.fields != fields { return }
        }
    }

    @Test func canonicalTextIsWhatAPersonWrites() throws {
        let fields: YAMLMapping = [
            "title": .string("Pasta alla Carbonara"), "time": .string("15m"), "servings": .int(4),
            "tags": .sequence([.string("pasta"), .string("italian")]), "answer": .string("no"),
            "at": .string("12:30"), "date": .timestamp("2026-11-30"), "text date": .string("2026-11-30"),
            "quote": .string("Don't panic: ever"), "done": .bool(false), "empty": .null,
            "notes": .string("Line one\nLine two\n"),
            "ingredients": .sequence([.mapping(["name": .string("Uova"), "quantity": .int(4)])]),
        ]
        let document = try Document(fields: fields, body: "Body\n")
        #expect(document.text == """
            ---
            title: Pasta alla Carbonara
            time: 15m
            servings: 4
            tags: [pasta, italian]
            answer: "no"
            at: "12:30"
            date: 2026-11-30
            text date: "2026-11-30"
            quote: "Don't panic: ever"
            done: false
            empty:
            notes: |
              Line one
              Line two
            ingredients:
              - name: Uova
                quantity: 4
            ---
            Body

            """)
    }

    @Test func randomEditsShowExactlyTheEditInOnlyItsLines() throws {
        let seed = SeededRandom.testSeed()
        var values = RandomValues(random: SeededRandom(seed: seed))
        for round in 0..<1500 {
            var document = try Document(
                fields: values.mapping(count: 1...6), body: "Body\n", lineEnding: values.chance(20) ? .crlf : .lf)
            for step in 0..<4 {
                let before = document
                var expected = before.fields
                let keys = expected.keys
                let key = keys.isEmpty || values.chance(25) ? values.key() : keys[values.int(0...keys.count - 1)]
                let context = "seed \(seed) round \(round) step \(step) key '\(key)'\n\(before.text)"
                let existing = before.frontMatterRoot?.pair(forKey: key)
                let keyLines = existing.map {
                    $0.keyNode.start.line...lineNumber(of: $0.valueNode.range.upperBound, in: before.bytes)
                }
                do {
                    switch values.int(0...4) {
                    case 0, 1:
                        let value = values.value(depth: 1)
                        try document.setValue(value, forKey: key)
                        expected[key] = value
                    case 2:
                        try document.removeValue(forKey: key)
                        expected[key] = nil
                    case 3:
                        let item = values.value(depth: 2)
                        guard expected[key]?.mappingValue == nil else { continue }
                        try document.appendItem(item, toListForKey: key)
                        switch expected[key] {
                        case .sequence(let items)?: expected[key] = .sequence(items + [item])
                        case nil, .null?: expected[key] = .sequence([item])
                        case let scalar?: expected[key] = .sequence([scalar, item])
                        }
                    default:
                        guard case .sequence(var items)? = expected[key], !items.isEmpty else { continue }
                        let index = values.int(0...items.count - 1)
                        if values.chance(50) {
                            try document.removeItem(at: index, fromListForKey: key)
                            items.remove(at: index)
                        } else {
                            let item = values.value(depth: 2)
                            try document.setItem(item, at: index, inListForKey: key)
                            items[index] = item
                        }
                        expected[key] = .sequence(items)
                    }
                } catch {
                    Issue.record("\(context)\nedit failed: \(error)")
                    return
                }
                document.frontMatter.root?._checkInvariants()
                #expect(document.fields == expected, "\(context)\nafter:\n\(document.text)")
                #expect(document.body == "Body\n")
                let diff = LineDiff(before.bytes, document.bytes)
                if let keyLines {
                    #expect(diff.oldLines.allSatisfy(keyLines.contains), "\(context)\nchanged lines \(diff.oldLines) outside \(keyLines)\nafter:\n\(document.text)")
                } else if !before.fields.isEmpty {
                    #expect(diff.oldLines.isEmpty, "\(context)\nadding a key changed lines \(diff.oldLines)\nafter:\n\(document.text)")
                }
                if document.fields != expected { return }
            }
        }
    }
}
