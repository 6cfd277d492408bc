import Foundation
import FolioTestSupport
import Testing
@testable import FolioStore
@testable import FolioSystem

/// A file the store cannot read is reported, never taken for one that is not there.
@MainActor
@Suite struct StoreReadFailureTests {
    func fixturesCopy() throws -> URL { try Fixtures.temporaryCopy() }

    @Test func anUnreadableSettingsFileIsALoadProblem() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}\n".utf8).write(to: folder.appendingPathComponent(Settings.fileName))
        let failing = FaultInjection(failure: { operation, path in
            operation == .read && path.hasSuffix("/" + Settings.fileName) ? EIO : nil
        })
        var problems: [SystemError] = []
        FaultInjection.$current.withValue(failing) {
            do { problems = try FolderScan.read(folder.path).1 } catch { Issue.record("the folder itself could not be read: \(error)") }
        }
        #expect(problems.contains { $0.path.hasSuffix("/" + Settings.fileName) && $0.code == EIO })
    }

    @Test func aFileThatCannotBeReadAgainIsReportedAndKept() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let path = "todos/buy-milk.md"
        // Changed behind the store's back, then unreadable: the store refuses, reads it again, and cannot.
        try Data("---\ntitle: Buy oat milk\ndone: false\n---\n".utf8).write(to: folder.appendingPathComponent(path))
        let failing = FaultInjection(failure: { operation, target in operation == .read && target.hasSuffix("/" + path) ? EIO : nil })
        let errors = await FaultInjection.$current.withValue(failing) { await store.dispatch(.toggleDone(path: path)) }.errors
        #expect(errors.contains { $0.kind == .io && $0.path == path })
        #expect(store.state[path] != nil)
    }
}
