import Foundation
import FolioTestSupport
import Testing

/// A kind declared in `folio.yaml`, without Swift: `folio check`, `add` and `list` honour it.
@Suite struct DeclaredKindCommandTests {
    static let declaration = """
        kinds:
          book:
            folder: books
            fields:
              title: {type: text, required: true}
              author: {type: text, required: true}
              rating: {type: integer, min: 1, max: 5}
              status: {values: [reading, finished, abandoned]}
              started: date

        """

    func folder(_ files: [String: String]) throws -> URL {
        let folder = try FolioBinary.temporaryFolder()
        try Fixtures.write(files, into: folder)
        return folder
    }

    @Test func checkSaysWhatEachRecordGetsWrongAgainstTheDeclaration() async throws {
        let folder = try folder([
            "folio.yaml": Self.declaration,
            "books/dune.md": "---\ntitle: Dune\nauthor: Frank Herbert\nrating: 4\nstatus: reading\n---\n",
            "books/nine.md": "---\ntitle: Nine\nauthor: A\nrating: 9\n---\n",
            "books/lost.md": "---\ntitle: Lost\nauthor: B\nstatus: lost\n---\n",
            "books/anon.md": "---\ntitle: Anon\nstarted: soon\n---\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await FolioBinary.run(["check", folder.path])
        let root = folder.path
        #expect(run.stdout == """
            \(root)/books/anon.md:1:1: warning: a book needs 'author:' (folio.yaml makes it required): add 'author: …'
            \(root)/books/anon.md:3:10: warning: started 'soon' is not a date (YYYY-MM-DD): folio.yaml declares book.started as date
            \(root)/books/lost.md:4:9: warning: status 'lost' is not one of reading, finished, abandoned (folio.yaml, book.status)
            \(root)/books/nine.md:4:9: warning: rating '9' is more than 5, the most folio.yaml allows for book.rating

            """)
        #expect(run.status == 1)
    }

    @Test func aWrongDeclarationIsSaidWhereItIs() async throws {
        let folder = try folder([
            "folio.yaml": "kinds:\n  book:\n    fields:\n      rating: int\n      title: {type: text, required: maybe}\n",
            "books/a.md": "---\ntitle: A\n---\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await FolioBinary.run(["check", folder.path])
        let root = folder.path
        #expect(run.stdout == """
            \(root)/folio.yaml:4:15: error: unknown type 'int' for book.rating: use one of text, integer, number, boolean, date, duration, list
            \(root)/folio.yaml:5:37: error: 'required' of book.title must be true or false

            """)
        #expect(run.status == 1)
    }

    @Test func addAndListHonourTheDeclaredKind() async throws {
        let folder = try folder(["folio.yaml": Self.declaration, "books/dune.md": "---\ntitle: Dune\nauthor: Frank Herbert\n---\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let added = try await FolioBinary.run(["add", folder.path, "book", "--title", "Emma", "--field", "author=Jane Austen", "--field", "rating=5"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "books/emma.md\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("books/emma.md"), encoding: .utf8)
                == "---\ntitle: Emma\nauthor: Jane Austen\nrating: 5\n---\n")
        let refused = try await FolioBinary.run(["add", folder.path, "book", "--title", "Bad", "--field", "author=X", "--field", "rating=9"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: cannot add the book: rating '9' is more than 5, the most folio.yaml allows for book.rating\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/bad.md").path))
        let listed = try await FolioBinary.run(["list", folder.path, "--kind", "book"])
        #expect(listed.status == 0)
        #expect(listed.stdout == "books/dune.md  book  Dune\nbooks/emma.md  book  Emma\n")
    }
}
