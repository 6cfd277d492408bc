import Foundation
import FolioTestSupport
import Testing

/// `folio check`, run as a user runs it.
@Suite struct CheckCommandTests {
    @Test func fixturesAreClean() async throws {
        let run = try await FolioBinary.run(["check", FolioBinary.packageRoot.appendingPathComponent("Fixtures").path])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("no problems"))
    }

    @Test func reportsEveryProblemAndSkipsWhatIsNeverSynced() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "good.md": "---\ntitle: Good\n---\n",
            "notes/plain.md": "# No front matter\n",
            "recipes/bad.md": "---\ntitle: A\ntitle: B\n---\n",
            "todos/tab.md": "---\ntags:\n\t- a\n---\n",
            "todos/open.md": "---\ntitle: never closed\n",
            ".git/ignored.md": "---\nbroken: [\n---\n",
            "todos/.open.md.swp": "---\nbroken: [\n---\n",
            "todos/open.md~": "---\nbroken: [\n---\n",
            ".stversions/old.md": "---\nbroken: [\n---\n",
            "readme.txt": "---\nbroken: [\n---\n",
        ]
        try Fixtures.write(files, into: folder)
        let run = try await FolioBinary.run(["check", folder.path])
        #expect(run.status == 1)
        let root = folder.path
        #expect(run.stdout == """
            \(root)/recipes/bad.md:3:1: error: duplicate key 'title' (first defined on line 2); remove one of them
            title: B
            ^
            \(root)/todos/open.md:1:1: error: front matter is not closed: add a line '---' after its last field (the file starts with '---')
            ---
            ^
            \(root)/todos/tab.md:3:1: error: tab character used for indentation; YAML indents with spaces only, so replace the tab with spaces
            \t- a
            ^

            """)
        #expect(run.stderr.contains("checked 5 files"))
        #expect(run.stderr.contains("3 problems"))
    }

    @Test func aMissingFolderIsAnErrorNotAnEmptyFolder() async throws {
        let run = try await FolioBinary.run(["check", "/nonexistent/folder"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("/nonexistent/folder: error: cannot open directory"))
        #expect(try await FolioBinary.run(["check"]).status == 2)
        #expect(try await FolioBinary.run(["check", "--json", "x"]).status == 2)
    }
}
