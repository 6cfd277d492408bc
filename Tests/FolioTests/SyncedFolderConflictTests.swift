@testable import Folio
import FolioFolder
@testable import FolioShared
@testable import FolioStore
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
@testable import FolioWatch
import Foundation
import Testing

/// Conflicts settled from the app: their status, their resolution with the loser in
/// the trash, and the lists that leave the copies out.
@MainActor @Suite struct SyncedFolderConflictTests {
    @Test func aCopyIsListedApartJudgedAndSettledWithTheLoserInTheTrash() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-conflicts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("shared").path
        let copy = "todos/milk.sync-conflict-20261130-120000-PHONE12.md"
        try SyncedFolderTests.write("---\ntitle: Milk\n---\n", to: folder + "/todos/milk.md")
        try SyncedFolderTests.write("---\ntitle: Oat milk\n---\n", to: folder + "/" + copy)
        var fold = FoldOptions()
        fold.stateDirectory = root.appendingPathComponent("state").path
        fold.quietPeriod = .zero
        let opened = try await SyncedFolder.open(folder, watchOptions: SyncedFolderTests.fastOptions, foldOptions: fold)
        defer { opened.close() }
        #expect(opened.isReady)
        // The typed list shows the todo once; the copy is with its file.
        #expect(opened.store.todos.map(\.path) == ["todos/milk.md"])
        #expect(opened.store.state.conflicts.map(\.copies) == [[copy]])

        await opened.conflictsSettled()
        #expect(opened.conflictStatuses.map(\.copy) == [copy])
        let statuses = try await opened.conflicts()
        #expect(statuses.map(\.copy) == [copy] && statuses.map(\.file) == ["todos/milk.md"])
        guard case .kept(let reason)? = statuses.first?.verdict else {
            Issue.record("not kept: \(statuses)")
            return
        }
        #expect(reason == "no common ancestor of todos/milk.md and the copy is known")

        let difference = try opened.difference(for: copy)
        #expect(difference.fields == [.init(key: "title", file: .string("Milk"), copy: .string("Oat milk"))])
        #expect(difference.lines.isEmpty && !difference.fileIsGone)
        // One way to fail: a path that is no copy throws, saying so.
        #expect(throws: SyncError.self) { try opened.difference(for: "todos/milk.md") }

        let outcome = try await opened.resolve(copy, by: .keepFile)
        #expect(outcome == .keptFile)
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + copy))
        #expect(opened.store.state[copy] == nil)
        #expect(opened.store.trashedFiles().map(\.path) == [copy])
        #expect(try await opened.conflicts().isEmpty)
        await opened.conflictsSettled()
        #expect(opened.conflictStatuses.isEmpty)
    }
}
