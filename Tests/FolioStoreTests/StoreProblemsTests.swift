import FolioFormat
import FolioModel
import FolioTestSupport
import Foundation
import Testing
@testable import FolioStore

/// `store.problems`: every problem in the folder with its `path:line:col`, for a kind
/// declared in Swift, in `folio.yaml`, or both (one message per fault), kept current.
@MainActor @Suite struct StoreProblemsTests {
    struct Run: RecordType, Codable, Equatable {
        static let kind = Kind(rawValue: "run")
        var title: String
        var date: CalendarDate
        var distance: Double
        var feel: Int?

        var problems: [String] {
            guard let feel, !(1...5).contains(feel) else { return [] }
            return ["feel \(feel) is not from 1 to 5"]
        }
    }

    static let declaration = "kinds:\n  run:\n    folder: runs\n    fields:\n      feel: {type: integer, min: 1, max: 5}\n      date: {type: date, required: true}\n"

    func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-problems-\(UUID().uuidString)")
        try Fixtures.write(files, into: folder)
        return folder
    }

    static let runs = [
        "runs/good.md": "---\nkind: run\ntitle: Good\ndate: 2026-12-01\ndistance: 5\nfeel: 4\n---\n",
        "runs/far.md": "---\nkind: run\ntitle: Far\ndate: 2026-12-02\ndistance: far\n---\n",
        "runs/tired.md": "---\nkind: run\ntitle: Tired\ndate: 2026-12-03\ndistance: 3\nfeel: 9\n---\n",
        "runs/broken.md": "---\ntitle: [unclosed\n---\n",
        "todos/t.md": "---\nkind: todo\ndue: soon\n---\n",
    ]

    @Test func aKindDeclaredOnlyInSwiftHasEveryProblemPlaced() async throws {
        let folder = try folder(Self.runs)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        store.register(Run.self)
        #expect(store.problems.map(\.description) == [
            "runs/broken.md:2:8: error: unterminated flow sequence: add the closing ']' for this '['",
            "runs/far.md:5:11: warning: distance: expected a number, found 'far'",
            "runs/tired.md:6:7: warning: feel 9 is not from 1 to 5",
            "todos/t.md:1:1: warning: a todo needs a title: add 'title: …'",
            "todos/t.md:3:6: warning: 'soon' is not a date: write it as YYYY-MM-DD",
        ])
        // The record that does not decode is still in the list, as a record; its problem says why.
        #expect(store.list(of: Run.self).map(\.path) == ["runs/far.md", "runs/good.md", "runs/tired.md"])
        // Typed, the whole kind: the one that does not decode and the one that does not parse (in runs/, a run) are named, not dropped.
        let all = store.liveValues(of: Run.self)
        #expect(all.values.map(\.title) == ["Good", "Tired"] && Set(all.unreadable) == ["runs/far.md", "runs/broken.md"])
    }

    @Test func aKindDeclaredTwiceGivesOneMessagePerFault() async throws {
        var files = Self.runs
        files["folio.yaml"] = Self.declaration
        files["runs/undated.md"] = "---\nkind: run\ntitle: Undated\ndistance: 2\n---\n"
        let folder = try folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        // Declared in folio.yaml only: its messages.
        #expect(store.problems.filter { $0.path.hasPrefix("runs/") && $0.path != "runs/broken.md" }.map(\.description) == [
            "runs/tired.md:6:7: warning: feel '9' is more than 5, the most folio.yaml allows for run.feel",
            "runs/undated.md:1:1: warning: a run needs 'date:' (folio.yaml makes it required): add 'date: …'",
        ])
        // Registered too: one message per fault, the type's where it judges the value.
        store.register(Run.self)
        #expect(store.problems.filter { $0.path.hasPrefix("runs/") && $0.path != "runs/broken.md" }.map(\.description) == [
            "runs/far.md:5:11: warning: distance: expected a number, found 'far'",
            "runs/tired.md:6:7: warning: feel 9 is not from 1 to 5",
            "runs/undated.md:1:1: warning: date: required, and missing: add 'date: …'",
        ])
        // The reducer refuses a bad value once, not twice.
        let refused = await store.update(Run(title: "Good", date: try #require(CalendarDate("2026-12-01")), distance: 5, feel: 8), at: "runs/good.md")
        #expect(refused.errors.map(\.message) == ["cannot save the run: feel 8 is not from 1 to 5"])
    }

    @Test func problemsAreKeptCurrentAndFolioYamlIsChecked() async throws {
        var files = Self.runs
        files["folio.yaml"] = "kinds:\n  note: {folder: notes}\n"
        let folder = try folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        store.register(Run.self)
        #expect(store.problems.first?.description == "folio.yaml:2:3: error: 'note' cannot be declared as a kind: give the kind a name other than note")
        // A fix on disk takes the problem away; a new fault shows.
        try FixtureFile.write("---\nkind: run\ntitle: Tired\ndate: 2026-12-03\ndistance: 3\nfeel: 3\n---\n", to: folder.appendingPathComponent("runs/tired.md").path)
        _ = await store.dispatch(.fileChanged(path: "runs/tired.md", bytes: []))
        #expect(!store.problems.contains { $0.path == "runs/tired.md" })
        try FixtureFile.write("kinds: [run]\n", to: folder.appendingPathComponent("folio.yaml").path)
        _ = await store.dispatch(.settingsFileChanged(bytes: Array("kinds: [run]\n".utf8)))
        #expect(store.problems.first?.description == "folio.yaml:1:8: error: 'kinds:' must map each kind's name to its declaration (kinds: {book: {folder: books, fields: …}})")
        #expect(store.problems(at: "runs/good.md").isEmpty)
    }

    /// `conflictCopies:` in folio.yaml: a copy named as the folder's tool names them is
    /// listed with its file, not as a second recipe; an entry that is no pattern is a
    /// problem at its value.
    @Test func declaredCopyNamesAreCopiesAndABadOneIsAProblem() async throws {
        let recipe = "---\ntitle: Soup\nservings: 2\n---\n"
        let folder = try folder([
            "folio.yaml": "conflictCopies: [icloud, '{name}']\n", "recipes/soup.md": recipe, "recipes/soup 2.md": recipe,
            "recipes/route 66.md": "---\ntitle: Route 66 chili\n---\n", "recipes/chili.md": "---\ntitle: Chili\n---\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(store.state.recipes.map(\.path) == ["recipes/chili.md", "recipes/soup.md"])
        #expect(store.state.conflicts.map(\.file) == ["recipes/route.md", "recipes/soup.md"])
        #expect(store.state.conflictCopyOf(try #require(store.state["recipes/soup 2.md"])) == "recipes/soup.md")
        #expect(store.problems(at: "folio.yaml").map(\.description) == [
            "folio.yaml:1:17: error: conflictCopies: '{name}' is not a pattern: it must add something to the name, or every file would be a copy of itself",
        ])
        // Without the declaration, `soup 2.md` is a recipe of its own.
        try FixtureFile.write("sleepGoal: 8\n", to: folder.appendingPathComponent("folio.yaml").path)
        _ = await store.dispatch(.settingsFileChanged(bytes: Array("sleepGoal: 8\n".utf8)))
        #expect(store.state.recipes.map(\.path) == ["recipes/chili.md", "recipes/route 66.md", "recipes/soup 2.md", "recipes/soup.md"])
        #expect(store.state.conflicts.isEmpty)
    }
}
