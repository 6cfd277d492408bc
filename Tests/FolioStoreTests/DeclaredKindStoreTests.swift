import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// Kinds a folder's `folio.yaml` declares, in the store: the folder's files are of the
/// kind, the reducer checks adds and updates against the declaration, and a
/// declaration made or dropped while the store is open re-kinds the files.
@MainActor @Suite struct DeclaredKindStoreTests {
    static let book = Kind(rawValue: "book")
    static let declaration = "kinds:\n  book:\n    folder: shelf\n    fields:\n      rating: {type: integer, min: 1, max: 5}\n"

    func folder(_ files: [String: String]) throws -> URL {
        let folder = try Fixtures.temporaryCopy()
        try Fixtures.write(files, into: folder)
        return folder
    }

    @Test func aDeclaredFolderIsItsKindsFromTheFirstRead() async throws {
        let folder = try folder(["folio.yaml": Self.declaration, "shelf/dune.md": "---\ntitle: Dune\nrating: 4\n---\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(store.state["shelf/dune.md"]?.kind == Self.book)
        #expect(try store.query("kind:book").map(\.path) == ["shelf/dune.md"])
        let refused = await store.dispatch(.records(.updateFields(path: "shelf/dune.md", setting: ["rating": .int(7)])))
        #expect(refused.errors.map(\.message) == ["cannot save the book: rating '7' is more than 5, the most folio.yaml allows for book.rating"])
        let added = await store.dispatch(.records(.addRecord(kind: Self.book, fields: ["title": .string("Emma"), "rating": .int(5)])))
        #expect(added.createdPath == "shelf/emma.md")
        #expect(try String(contentsOf: folder.appendingPathComponent("shelf/emma.md"), encoding: .utf8) == "---\ntitle: Emma\nrating: 5\n---\n")
    }

    @Test func aDeclarationMadeOrDroppedLaterReKindsTheFolder() async throws {
        let folder = try folder(["shelf/dune.md": "---\ntitle: Dune\n---\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(store.state["shelf/dune.md"]?.kind == .note)
        var iterator = store.changes().makeAsyncIterator()
        try Self.declaration.write(to: folder.appendingPathComponent("folio.yaml"), atomically: true, encoding: .utf8)
        _ = await store.dispatch(.settingsFileChanged(bytes: nil))
        #expect(store.state["shelf/dune.md"]?.kind == Self.book)
        let told = await iterator.next()
        #expect(told?.updated == ["shelf/dune.md"])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("folio.yaml"))
        _ = await store.dispatch(.settingsFileChanged(bytes: nil))
        #expect(store.state["shelf/dune.md"]?.kind == .note)
    }
}
