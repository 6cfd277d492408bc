import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// An app's own kind through the store: registered, added, listed, updated field by field.
@MainActor @Suite struct StoreRecordTypeTests {
    struct Book: RecordType, Codable, Equatable {
        static let kind = Kind(rawValue: "book")
        var title: String
        var author: String
        var rating: Int?

        var problems: [String] {
            guard let rating, !(1...5).contains(rating) else { return [] }
            return ["rating \(rating) is not from 1 to 5"]
        }
    }

    func contents(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func aRegisteredKindIsAddedListedAndUpdatedByValue() async throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        store.register(Book.self)
        #expect(store.list(of: Book.self).isEmpty)

        let added = await store.add(Book(title: "Dune", author: "Frank Herbert", rating: 4))
        #expect(added.errors.isEmpty)
        #expect(added.createdPath == "books/dune.md")
        #expect(try contents(folder, "books/dune.md") == "---\nkind: book\ntitle: Dune\nauthor: Frank Herbert\nrating: 4\n---\n")
        _ = await store.add(Book(title: "Emma", author: "Jane Austen"))
        #expect(store.list(of: Book.self).map(\.title) == ["Dune", "Emma"])
        #expect(store.value(Book.self, at: "books/dune.md") == Book(title: "Dune", author: "Frank Herbert", rating: 4))

        // The reducer refuses what the type refuses.
        let refused = await store.add(Book(title: "Bad", author: "X", rating: 9))
        #expect(refused.errors.map(\.message) == ["cannot add the book: rating 9 is not from 1 to 5"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/bad.md").path))

        // A hand edit adds a comment and a field the type does not know: both stay.
        try Data("---\nkind: book\ntitle: Dune   # the first one\nauthor: Frank Herbert\nrating: 4\nshelf: top\n---\nNotes.\n".utf8)
            .write(to: folder.appendingPathComponent("books/dune.md"))
        _ = await store.dispatch(.fileChanged(path: "books/dune.md", bytes: []))
        let updated = await store.update(Book(title: "Dune", author: "Frank Herbert", rating: nil), at: "books/dune.md")
        #expect(updated.errors.isEmpty)
        #expect(try contents(folder, "books/dune.md") == "---\nkind: book\ntitle: Dune   # the first one\nauthor: Frank Herbert\nshelf: top\n---\nNotes.\n")
        let badUpdate = await store.update(Book(title: "Dune", author: "Frank Herbert", rating: 7), at: "books/dune.md")
        #expect(badUpdate.errors.map(\.kind) == [.invalidRecord])

        // Removed on disk: the list follows.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("books/emma.md"))
        _ = await store.dispatch(.fileRemoved(path: "books/emma.md"))
        #expect(store.list(of: Book.self).map(\.path) == ["books/dune.md"])
    }

    /// The built-in kinds are record types too: the same calls work for a recipe, with
    /// the recipe's own minimal edits.
    /// Added under a name and in a folder the app picks: the name as given (`.md` added),
    /// never replacing a file; a name or folder that is no plain one refused.
    @Test func aRecordIsAddedUnderTheNameAndInTheFolderTheAppPicks() async throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        store.register(Book.self)
        let book = Book(title: "Dune", author: "Frank Herbert")
        #expect(await store.add(book, named: "2026-12-01 Dune").createdPath == "books/2026-12-01 Dune.md")
        #expect(await store.add(book, named: "2026-12-01 Dune.md").createdPath == "books/2026-12-01 Dune-2.md")
        #expect(await store.add(book, named: "dune.markdown", in: "library/shelf").createdPath == "library/shelf/dune.markdown")
        #expect(await store.add(book, in: "library").createdPath == "library/dune.md")
        #expect(try contents(folder, "library/shelf/dune.markdown") == "---\nkind: book\ntitle: Dune\nauthor: Frank Herbert\n---\n")
        for name in ["", "a/b", ".hidden", "  "] {
            let refused = await store.add(book, named: name)
            #expect(refused.createdPath == nil && refused.errors.first?.message.hasPrefix("'\(name)' is not a file name a record can have") == true, "\(name)")
        }
        for place in ["../out", "/tmp", "a/./b"] {
            #expect(await store.add(book, in: place).errors.first?.message.hasPrefix("'\(place)' is not a folder below the store's") == true, "\(place)")
        }
        #expect(store.list(of: Book.self).count == 4)
    }

    @Test func theBuiltInKindsGoThroughTheSameCalls() async throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(store.list(of: Recipe.self).map(\.path) == store.recipes.sorted { ($0.title, $0.path) < ($1.title, $1.path) }.map(\.path))
        let path = try #require(store.recipes.first?.path)
        let before = try contents(folder, path)
        var recipe = try #require(store.value(Recipe.self, at: path))
        recipe.servings = 12
        let updated = await store.update(recipe, at: path)
        #expect(updated.errors.isEmpty)
        let after = try contents(folder, path)
        // One field changed or added, nothing else: the body's bytes are the same.
        #expect(after.components(separatedBy: "\n").filter { !before.components(separatedBy: "\n").contains($0) } == ["servings: 12"])
        #expect(store.value(Recipe.self, at: path)?.servings == 12)
        let wrongKind = await store.update(Todo(title: "x"), at: path)
        #expect(wrongKind.errors.map(\.kind) == [.wrongKind])
        let added = await store.add(Todo(title: "Call Anna"))
        #expect(added.createdPath == "todos/call-anna.md")
    }
}
