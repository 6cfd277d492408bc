import Foundation
import Testing
@testable import FolioStore
import FolioSystem
import FolioTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's delete never removes an edit saved between its check and the removal:
/// the file is moved aside in one step and checked; a save that landed goes back.
@Suite struct StoreDeleteTests {
    func folder(_ text: String) throws -> (root: String, file: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-delete-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/todos", withIntermediateDirectories: true)
        try FixtureFile.write(text, to: root + "/todos/buy-milk.md")
        return (root, root + "/todos/buy-milk.md")
    }

    /// An editor's save (write a temporary file, rename it over) run once, just before
    /// the store's removal acts on the file (its rename aside, or an unlink by name).
    final class EditorSave: @unchecked Sendable {
        // Safe: `saved` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var saved = false
        let file: String
        init(file: String) { self.file = file }

        func run(_ operation: SystemError.Operation, _ path: String) {
            guard (operation == .rename && path.hasSuffix(".tmp")) || (operation == .unlink && path == file) else { return }
            lock.lock()
            defer { lock.unlock() }
            guard !saved else { return }
            saved = true
            let temporary = file + ".editor"
            _ = FileManager.default.createFile(atPath: temporary, contents: Data("---\ntitle: Buy oat milk\n---\n".utf8))
            _ = rename(temporary, file)
        }
    }

    @Test func anEditSavedBetweenTheCheckAndTheRemovalStays() throws {
        let original = "---\ntitle: Buy milk\n---\n"
        let (root, file) = try folder(original)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let save = EditorSave(file: file)
        let folder = try RootedFolder(root)
        let result = FaultInjection.$current.withValue(FaultInjection(beforeCall: save.run)) {
            Store.perform(.delete(path: "todos/buy-milk.md", expecting: Fingerprint(Array(original.utf8))), under: folder)
        }
        guard case .changed = result else {
            Issue.record("expected the delete to give up, got \(result)")
            return
        }
        #expect(FileManager.default.contents(atPath: file) == Data("---\ntitle: Buy oat milk\n---\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/todos") == ["buy-milk.md"])
    }

    @Test func theFileReadIsRemoved() throws {
        let original = "---\ntitle: Buy milk\n---\n"
        let (root, _) = try folder(original)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = Store.perform(.delete(path: "todos/buy-milk.md", expecting: Fingerprint(Array(original.utf8))), under: try RootedFolder(root))
        guard case .done = result else {
            Issue.record("expected the delete to be done, got \(result)")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/todos") == [])
    }
}
