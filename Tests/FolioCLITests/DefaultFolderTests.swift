import Foundation
import FolioTestSupport
import Testing
@testable import folio

/// A command's `DIR` left out: `FOLIO_DIR`, else the nearest folder holding
/// `folio.yaml` from the current one up; said in the help and in the error when there
/// is none.
@Suite struct DefaultFolderTests {
    /// A default folder found among `files` (absolute paths that exist).
    func folder(_ environment: [String: String] = [:], in current: String, files: Set<String>) -> DefaultFolder {
        DefaultFolder(environment: environment, current: current) { files.contains($0) }
    }

    @Test func theNearestFolderWithFolioYAMLFromHereUp() {
        let files: Set = ["/home/ann/food/folio.yaml"]
        #expect(folder(in: "/home/ann/food", files: files).path == "/home/ann/food")
        #expect(folder(in: "/home/ann/food/recipes/soups", files: files).path == "/home/ann/food")
        #expect(folder(in: "/home/ann", files: files).path == nil)
        // FOLIO_DIR comes first; empty, it is not set.
        #expect(folder(["FOLIO_DIR": "/srv/notes"], in: "/home/ann/food", files: files).path == "/srv/notes")
        #expect(folder(["FOLIO_DIR": ""], in: "/tmp", files: files).path == nil)
    }

    @Test func aLeftOutDirIsTheDefaultFolder() throws {
        let food = folder(in: "/home/ann/food", files: ["/home/ann/food/folio.yaml"])
        func parsed(_ arguments: [String], _ command: any FolioCommand.Type, isFolder: @escaping (String) -> Bool = { _ in false }) throws -> [String] {
            try ParsedArguments(arguments, spec: command.arguments, defaultFolder: food, isFolder: isFolder).positionals
        }
        #expect(try parsed([], ListCommand.self) == ["/home/ann/food"])
        #expect(try parsed(["--kind", "todos"], ListCommand.self) == ["/home/ann/food"])
        #expect(try parsed(["recipes/soup.md"], ShowCommand.self) == ["/home/ann/food", "recipes/soup.md"])
        #expect(try parsed([], WatchCommand.self) == ["/home/ann/food"])
        // Given, it is used: the default never replaces a folder named.
        #expect(try parsed(["/elsewhere"], ListCommand.self) == ["/elsewhere"])
        #expect(try parsed(["/elsewhere", "recipes/soup.md"], ShowCommand.self) == ["/elsewhere", "recipes/soup.md"])
        // A query's words: the first not a folder, so the folder is left out.
        #expect(try parsed(["tag:pasta", "OR", "tag:bread"], QueryCommand.self) == ["/home/ann/food", "tag:pasta", "OR", "tag:bread"])
        #expect(try parsed(["notes", "tag:pasta"], QueryCommand.self, isFolder: { $0 == "notes" }) == ["notes", "tag:pasta"])
        // A pair (`watch A B`) is never completed with it.
        #expect(try parsed(["a", "b"], WatchCommand.self) == ["a", "b"])
    }

    @Test func withoutOneTheErrorSaysWhyDirIsNeeded() {
        let none = folder(in: "/tmp", files: [])
        let error = #expect(throws: ParsedArguments.UsageError.self) { try ParsedArguments([], spec: ListCommand.arguments, defaultFolder: none) }
        #expect(error?.description == "expected one DIR, got 0 arguments (no folio.yaml here or above, and FOLIO_DIR is not set, so DIR cannot be left out)")
        #expect(ListCommand.help.contains("\n\n" + DefaultFolder.explained + "\n\n"))
        #expect(!SyncCommand.help.contains(DefaultFolder.explained))
    }

    /// Run as a user runs it: in a folder below the collection, and with FOLIO_DIR.
    @Test func theBinaryFindsTheCollectionItIsRunIn() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let food = root.appendingPathComponent("food")
        try FixtureFile.write("kinds: {}\n", to: food.appendingPathComponent("folio.yaml").path)
        try FixtureFile.write("---\ntitle: Buy milk\n---\n", to: food.appendingPathComponent("todos/buy-milk.md").path)
        let below = try await FolioBinary.run(["list"], in: food.appendingPathComponent("todos"))
        #expect(below.status == 0 && below.stdout.contains("Buy milk"), "\(below)")
        let named = try await FolioBinary.run(["show", "todos/buy-milk.md"], in: root, environment: ["FOLIO_DIR": food.path])
        #expect(named.status == 0 && named.stdout.contains("Buy milk"), "\(named)")
        let nowhere = try await FolioBinary.run(["list"], in: root)
        #expect(nowhere.status == 2 && nowhere.stderr.hasPrefix("folio list: expected one DIR, got 0 arguments (no folio.yaml here or above"), "\(nowhere)")
    }
}
