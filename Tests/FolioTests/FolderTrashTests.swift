@testable import Folio
@testable import FolioShared
@testable import FolioStore
@testable import FolioSync
import FolioSystem
@testable import FolioVersions
import Foundation
import Testing

/// A record an app removes goes to the folder's trash, and comes back from it.
@MainActor @Suite struct FolderTrashTests {
    @Test func aRemovedRecordIsInTheTrashAndComesBack() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-trash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("todos"), withIntermediateDirectories: true)
        let text = "---\ntitle: Milk\n---\nOat.\n"
        try Data(text.utf8).write(to: folder.appendingPathComponent("todos/milk.md"))
        let trash = FolderTrash(folder: folder.path, state: root.appendingPathComponent("state").path)
        let store = try await Store.load(folder.path, removedFiles: trash)
        #expect(store.trashedFiles().isEmpty)

        let removed = await store.dispatch(.removeRecord(path: "todos/milk.md"))
        #expect(removed.succeeded)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("todos/milk.md").path))
        #expect(store.state["todos/milk.md"] == nil)
        let items = store.trashedFiles()
        #expect(items.map(\.path) == ["todos/milk.md"] && items.map(\.replica) == [.a])

        try await store.restore(items[0])
        #expect(try String(contentsOf: folder.appendingPathComponent("todos/milk.md"), encoding: .utf8) == text)
        #expect(store.state["todos/milk.md"]?.title == "Milk")
        #expect(store.trashedFiles().isEmpty)
        // The same trash `folio restore DIR --state STATE` reads.
        #expect(Trash(state: try RootedFolder(trash.state)).items().isEmpty)
    }

    /// `import Folio`'s `Store.load(_:)` is the one with the folder's trash: an app that
    /// removes a record can get it back.
    @Test func aStoreAnAppLoadsKeepsRemovedFiles() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-trash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let store = try await Store.load(root.path)
        let trash = try #require(store.removedFiles as? FolderTrash)
        #expect(trash.state == SharedFolder.defaultState(for: try Syscall.realPath(root.path)))
    }

    /// A file saved between the store's read and its removal stays where it is.
    @Test func aFileChangedSinceItWasReadIsNotTrashed() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-trash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("notes/todos"), withIntermediateDirectories: true)
        let file = root.appendingPathComponent("notes/todos/milk.md")
        try Data("---\ntitle: Milk\n---\n".utf8).write(to: file)
        let store = try await Store.load(root.appendingPathComponent("notes").path, removedFiles: FolderTrash(folder: root.path, state: root.appendingPathComponent("state").path))
        try Data("---\ntitle: Milk, edited\n---\n".utf8).write(to: file)
        let removed = await store.dispatch(.removeRecord(path: "todos/milk.md"))
        #expect(removed.errors.map(\.kind) == [.changedOnDisk])
        #expect(try String(contentsOf: file, encoding: .utf8) == "---\ntitle: Milk, edited\n---\n")
        #expect(store.trashedFiles().isEmpty)
    }
}
