import FolioTestSupport
import Foundation
import Testing

/// `folio query`, as a new user types it: OR, NOT and -term (one argument or several),
/// relative dates, a key no record has said, files that do not parse counted.
@Suite struct QueryCommandTests {
    static func folder() throws -> URL {
        let folder = try FolioBinary.temporaryFolder()
        let files = [
            "recipes/carbonara.md": "---\ntitle: Carbonara\ntags: [pasta]\n---\n",
            "recipes/bread.md": "---\ntitle: Bread\ntags: [bread]\n---\n",
            "recipes/soup.md": "---\ntitle: Soup\n---\n",
            "todos/old.md": "---\ntitle: Old\ndue: 2001-01-01\n---\n",
            "notes/broken.md": "---\ntitle: \"broken\n---\n",
        ]
        try Fixtures.write(files, into: folder)
        return folder
    }

    @Test func orNotAndAMinusSayWhatTheyFind() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let note = "note: 1 file does not parse and was left out: folio check \(folder.path) says why\n"
        let either = try await FolioBinary.run(["query", folder.path, "tag:pasta OR tag:bread"])
        #expect(either.status == 0 && either.stdout == "recipes/bread.md      recipe  Bread\nrecipes/carbonara.md  recipe  Carbonara\n" && either.stderr == note, "\(either)")
        let wordByWord = try await FolioBinary.run(["query", folder.path, "tag:pasta", "OR", "tag:bread"])
        #expect(wordByWord.stdout == either.stdout, "\(wordByWord)")
        let without = "recipes/bread.md  recipe  Bread\nrecipes/soup.md   recipe  Soup\n"
        for arguments in [["kind:recipe NOT tag:pasta"], ["-tag:pasta kind:recipe"], ["kind:recipe", "-tag:pasta"]] {
            let run = try await FolioBinary.run(["query", folder.path] + arguments)
            #expect(run.status == 0 && run.stdout == without, "\(arguments): \(run)")
        }
        let overdue = try await FolioBinary.run(["query", folder.path, "kind:todo date<today"])
        #expect(overdue.stdout == "todos/old.md  todo  [ ] Old (2001-01-01)\n", "\(overdue)")
    }

    @Test func aKeyNoRecordHasIsSaid() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await FolioBinary.run(["query", folder.path, "ingredient:garlic"])
        #expect(run.status == 0 && run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("folio query: no record has 'ingredient', so 'ingredient:' matches nothing; keys records have: date, done, due, kind, tag\n"), "\(run.stderr)")
    }
}
