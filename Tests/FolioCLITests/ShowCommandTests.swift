import FolioTestSupport
import Foundation
import Testing

/// `folio show`: a record printed for reading, a recipe scaled with `--servings`.
@Suite struct ShowCommandTests {
    static let soup = "---\ntitle: Soup\ntime: 30m\nservings: 2\n---\nThick and red.\n\n## Ingredients\n- 400 g tomatoes\n- 1 onion\n\n## Steps\n1. Soften the onion.\n2. Simmer.\n"

    func folder() throws -> URL {
        let folder = try FolioBinary.temporaryFolder()
        try Fixtures.write(
            ["recipes/soup.md": Self.soup, "todos/flour.md": "---\ntitle: Order flour\ndue: 2026-12-10\ntags: [shop, baking]\n---\nStrong flour.\n", "notes/bad.md": "---\ntitle: \"x\n---\n"],
            into: folder)
        return folder
    }

    @Test func aRecipeReadsAsARecipeAndScales() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shown = try await FolioBinary.run(["show", folder.path, "recipes/soup.md"])
        #expect(shown.status == 0 && shown.stdout == "Soup\n====\ntime 30m · serves 2\n\nThick and red.\n\nIngredients\n  - 400 g tomatoes\n  - 1 onion\n\nSteps\n  1. Soften the onion.\n  2. Simmer.\n", "\(shown)")
        let scaled = try await FolioBinary.run(["show", folder.path, "recipes/soup.md", "--servings", "4"])
        #expect(scaled.status == 0 && scaled.stdout.contains("time 30m · serves 4\n") && scaled.stdout.contains("  - 800 g tomatoes\n  - 2 onion\n"), "\(scaled)")
    }

    @Test func otherRecordsShowTheirFieldsAndText() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let todo = try await FolioBinary.run(["show", folder.path, "todos/flour.md"])
        #expect(todo.status == 0 && todo.stdout == "Order flour\n===========\ndue: 2026-12-10\ntags: shop, baking\n\nStrong flour.\n", "\(todo)")
        let notARecipe = try await FolioBinary.run(["show", folder.path, "todos/flour.md", "--servings", "2"])
        #expect(notARecipe.status == 2 && notARecipe.stderr == "folio show: --servings scales a recipe; todos/flour.md is a todo\n", "\(notARecipe)")
        let bad = try await FolioBinary.run(["show", folder.path, "notes/bad.md"])
        #expect(bad.status == 1 && bad.stderr.hasPrefix("notes/bad.md:2:8: error: unterminated double-quoted string"), "\(bad)")
        let missing = try await FolioBinary.run(["show", folder.path, "nope.md"])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("nope.md: error: no record at this path"), "\(missing)")
    }
}
