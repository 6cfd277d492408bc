import Foundation
import Testing

/// `folio list`, `query`, `add`, `done`, `rm`, `random`, `import-quotes`, run as a user runs them,
/// each on a fresh copy of Fixtures/.
@Suite struct StoreCommandTests {
    func fixturesCopy() throws -> URL {
        let folder = try FolioBinary.temporaryFolder()
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.copyItem(at: FolioBinary.packageRoot.appendingPathComponent("Fixtures"), to: folder)
        return folder
    }

    @Test func listPrintsAlignedColumnsAndJSON() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await FolioBinary.run(["list", folder.path, "--kind", "recipe"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            recipes/banana-bread.md          recipe  Banana Bread
            recipes/creamy-tomato-soup.md    recipe  Creamy Tomato Soup
            recipes/hamburger.md             recipe  Hamburger
            recipes/pasta-alla-carbonara.md  recipe  Pasta alla Carbonara

            """)
        let json = try await FolioBinary.run(["list", folder.path, "--kind", "quote", "--json"])
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(array.count == 5)
        #expect(array.allSatisfy { $0["path"] is String && ($0["kind"] as? String) == "quote" && $0["title"] is String && $0["fields"] is [String: Any] })
    }

    @Test func listIncludesFilesThatDoNotParseAndExits1() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "---\ntitle: \"Soup\n---\n".write(to: folder.appendingPathComponent("recipes/soup.md"), atomically: true, encoding: .utf8)
        let run = try await FolioBinary.run(["list", folder.path, "--json", "--kind", "recipe"])
        #expect(run.status == 1)
        let array = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [[String: Any]]
        let soup = array.first { ($0["path"] as? String) == "recipes/soup.md" }
        #expect((soup?["error"] as? String) == "recipes/soup.md:2:8: unterminated double-quoted string: add the closing \"")
    }

    @Test func queryAnswersAndRefusesMalformedQueriesWith2() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await FolioBinary.run(["query", folder.path, "kind:recipe tag:pasta time<30m guanciale"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("recipes/pasta-alla-carbonara.md  recipe  Pasta alla Carbonara"))
        let todos = try await FolioBinary.run(["query", folder.path, "kind:todo done:false sort:date limit:3", "--json"])
        let array = try JSONSerialization.jsonObject(with: Data(todos.stdout.utf8)) as! [[String: Any]]
        #expect(array.count == 3)
        let bad = try await FolioBinary.run(["query", folder.path, "time<soon"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'soon' is not a number") && bad.stderr.contains("\n       ^"))
    }

    @Test func addDoneAndRemoveAFile() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let add = try await FolioBinary.run(["add", folder.path, "todo", "--title", "Buy milk again", "--priority", "2", "--field", "context=home"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout == "todos/buy-milk-again.md\n")
        let file = folder.appendingPathComponent("todos/buy-milk-again.md")
        #expect(try String(contentsOf: file, encoding: .utf8) == "---\ntitle: Buy milk again\nkind: todo\ndone: false\npriority: 2\norder: 13\ncontext: home\n---\n")
        let done = try await FolioBinary.run(["done", folder.path, "todos/buy-milk-again.md"])
        #expect(done.status == 0 && done.stdout == "done todos/buy-milk-again.md: Buy milk again\n", "\(done)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("done: true\n"))
        // Listed with its box ticked; by its folder's name as well as its kind.
        let listed = try await FolioBinary.run(["list", folder.path, "--kind", "todos"])
        #expect(listed.status == 0 && listed.stdout.contains("todos/buy-milk-again.md") && listed.stdout.contains("todo  [x] Buy milk again\n"), "\(listed)")
        let undone = try await FolioBinary.run(["done", folder.path, "todos/buy-milk-again.md", "--undo"])
        #expect(undone.status == 0 && undone.stdout == "not done todos/buy-milk-again.md: Buy milk again\n", "\(undone)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("done: false\n"))
        let again = try await FolioBinary.run(["done", folder.path, "todos/buy-milk-again.md", "--undo"])
        #expect(again.status == 0 && again.stderr == "todos/buy-milk-again.md: already not done\n", "\(again)")
        let removed = try await FolioBinary.run(["rm", folder.path, "todos/buy-milk-again.md"])
        #expect(removed.status == 0, "\(removed)")
        #expect(removed.stdout.hasPrefix("moved todos/buy-milk-again.md to the trash in ") && removed.stdout.hasSuffix("/trash; folio restore \(folder.path) todos/buy-milk-again.md brings it back\n"), "\(removed.stdout)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let recipe = try await FolioBinary.run(["add", folder.path, "recipe", "--title", "Toast", "--field", "ingredients=[bread]"])
        #expect(recipe.status == 1)
        #expect(recipe.stderr.contains("cannot add the recipe: a recipe needs at least one step"))
        #expect(try await FolioBinary.run(["add", folder.path, "todo"]).status == 2)
    }

    @Test func importQuotesThenRandom() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("quotes.txt")
        try "#- Stay hungry,\nstay foolish. -#\n#- -#\n".write(to: source, atomically: true, encoding: .utf8)
        let library = folder.appendingPathComponent("library")
        let run = try await FolioBinary.run(["import-quotes", library.path, source.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("imported 1 quote"))
        let random = try await FolioBinary.run(["random", library.path, "--kind", "quote"])
        #expect(random.stdout == "Stay hungry, stay foolish.\n")
        try "nothing here".write(to: source, atomically: true, encoding: .utf8)
        let none = try await FolioBinary.run(["import-quotes", library.path, source.path])
        #expect(none.status == 1 && none.stderr.contains("no quotes found in \(source.path)"))
        let missing = try await FolioBinary.run(["import-quotes", library.path, folder.appendingPathComponent("nope.txt").path])
        #expect(missing.status == 2 && missing.stderr.contains("cannot open"))
        // A quote never closed is not imported, and said so with where it starts.
        try "#- Less is more. -#\n#- Half a thought".write(to: source, atomically: true, encoding: .utf8)
        let unclosed = try await FolioBinary.run(["import-quotes", library.path, source.path])
        #expect(unclosed.status == 1 && unclosed.stdout.hasPrefix("imported 1 quote"))
        #expect(unclosed.stderr == "\(source.path):2:1: warning: this quote is never closed, so it was not imported: add '-#' at its end\n")
    }

    @Test func aWriteTheDiskRefusesExits3AndAnUnknownRecord1() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The todos folder is a file: the new todo cannot be written, an I/O failure.
        try Data("not a folder".utf8).write(to: folder.appendingPathComponent("todos"))
        let add = try await FolioBinary.run(["add", folder.path, "todo", "--title", "Buy milk"])
        #expect(add.status == 3, "\(add.stderr)")
        #expect(add.stderr.contains("todos/buy-milk.md: error:"))
        #expect(try String(contentsOf: folder.appendingPathComponent("todos"), encoding: .utf8) == "not a folder")
        let done = try await FolioBinary.run(["rm", folder.path, "todos/nope.md"])
        #expect(done.status == 1 && done.stderr == "todos/nope.md: error: no such record (paths are relative to the folder: folio list DIR lists them)\n", "\(done.stderr)")
    }
}
