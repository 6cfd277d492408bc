import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat

/// Real files written by others (../shared/corpora) and Fixtures/: byte-identical round
/// trips, agreement with Obsidian's own front-matter parse, and minimal edits.
@Suite struct CorpusRoundTripTests {
    @Test func everyFileRoundTripsByteForByte() throws {
        let files = Corpora.recordFiles()
        // Fixtures/ alone holds 34; with the corpora beside it, 287 (as docs/testing.md says).
        let corpora = FileManager.default.fileExists(atPath: Corpora.root.path)
        #expect(files.count == (corpora ? 287 : 34), "\(files.count) files")
        var withFrontMatter = 0
        for path in files {
            let bytes = try Corpora.bytes(path)
            let document = try Document(bytes: bytes, path: path)
            document.frontMatter.root?._checkInvariants()
            let l = document.layout
            // The parts put back together are the file.
            var rebuilt: [UInt8] = l.hasBOM ? [0xEF, 0xBB, 0xBF] : []
            for part in [l.opener, l.yaml, l.closer, l.body] {
                if let part { rebuilt += bytes[part] }
            }
            #expect(rebuilt == bytes, "\(path)")
            // Setting every field to its own value writes nothing different.
            var same = document
            for entry in document.fields.entries { try same.setValue(entry.value, forKey: entry.key) }
            #expect(same.bytes == bytes, "\(path)")
            if l.hasFrontMatter { withFrontMatter += 1 }
        }
        print("round trip: \(files.count) files byte-identical (\(withFrontMatter) with front matter)")
    }

    @Test func agreesWithObsidiansOwnParse() throws {
        guard let directory = Corpora.path("todos-obsidian-tasks/obsidian-parsed-frontmatter") else { return }
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasSuffix(".json") {
            let capture = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            guard let object = capture as? [String: Any], let contents = object["fileContents"] as? String,
                  let metadata = object["cachedMetadata"] as? [String: Any]
            else { continue }
            let document = try Document(text: contents, path: name)
            if let frontMatter = metadata["frontmatter"] {
                let expectedJSON = String(decoding: try JSONSerialization.data(withJSONObject: frontMatter, options: [.fragmentsAllowed]), as: UTF8.self)
                let expected = try JSONReader.values(expectedJSON)[0]
                // JSONSerialization does not keep key order, so compare as sets of keys.
                let fields = document.fields
                #expect(Set(fields.keys) == Set(expected.mappingValue?.keys ?? []), "\(name)")
                for entry in expected.mappingValue?.entries ?? [] {
                    #expect(fields[entry.key]?.sameAsJSON(entry.value, ordered: false) == true, "\(name): \(entry.key)")
                }
                compared += 1
            } else {
                #expect(document.fields.isEmpty, "\(name): Obsidian saw no front matter")
            }
        }
        print("obsidian: \(compared) front matters equal to Obsidian's parse")
        #expect(compared >= 32)
    }

    @Test func changingOneFieldChangesOnlyItsLines() throws {
        var edited = 0
        for path in Corpora.recordFiles() {
            let original = try Document(bytes: try Corpora.bytes(path), path: path)
            guard let root = original.frontMatterRoot, let pair = root.pairs.first(where: { $0.valueNode.value.isScalar })
            else {
                // No front matter: adding a field inserts lines at the top and changes none.
                var document = original
                try document.setValue(.string("Added"), forKey: "title")
                let diff = LineDiff(original.bytes, document.bytes)
                #expect(diff.oldLines.isEmpty, "\(path)")
                #expect(document.fields["title"] == .string("Added"))
                #expect(document.body == original.body)
                continue
            }
            let newValue: YAMLValue
            switch pair.valueNode.value {
            case .int(let n): newValue = .int(n + 1)
            case .bool(let flag): newValue = .bool(!flag)
            default: newValue = .string("changed: by folio")
            }
            var document = original
            try document.setValue(newValue, forKey: pair.key)
            let diff = LineDiff(original.bytes, document.bytes)
            let keyLines = pair.keyNode.start.line...lineNumber(of: pair.valueNode.range.upperBound, in: original.bytes)
            #expect(diff.oldLines.allSatisfy(keyLines.contains), "\(path): changed \(diff.oldLines), field is \(keyLines)")
            #expect(document.fields[pair.key] == newValue, "\(path)")
            var expected = original.fields
            expected[pair.key] = newValue
            #expect(document.fields == expected, "\(path)")
            #expect(document.body == original.body)

            // A list field: appending an item inserts lines and changes none, or edits the one line of a [..] list.
            if let list = root.pairs.first(where: { $0.valueNode.value.sequenceValue != nil && $0.valueNode.value.sequenceValue!.allSatisfy(\.isScalar) }) {
                var listDocument = original
                try listDocument.appendItem(.string("folio item"), toListForKey: list.key)
                let listDiff = LineDiff(original.bytes, listDocument.bytes)
                let listLines = list.keyNode.start.line...lineNumber(of: list.valueNode.range.upperBound, in: original.bytes)
                #expect(listDiff.oldLines.allSatisfy(listLines.contains), "\(path)")
                #expect(listDocument.fields[list.key] == .sequence(list.valueNode.value.sequenceValue! + [.string("folio item")]), "\(path)")
            }
            edited += 1
        }
        print("minimal edits: \(edited) files edited, each diff within the edited field's lines")
    }
}
