@testable import Folio
import FolioFolder
import FolioModel
@testable import FolioShared
@testable import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Folds an app can await: `settle()` returns once the folds it started are done, and
/// the store's own writes are versions at once, so a copy made from any of them folds.
@MainActor @Suite struct SyncedFolderSettleTests {
    @Test func anItemAddedAndTickedAtOnceIsTheBaseOfACopyMadeFromIt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-settle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("shopping").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var fold = FoldOptions()
        fold.stateDirectory = root.appendingPathComponent("state").path
        fold.quietPeriod = .milliseconds(300)
        let opened = try await SyncedFolder.open(folder, watchOptions: SyncedFolderTests.fastOptions, foldOptions: fold)
        defer { opened.close() }

        // Added, and ticked off straight after, while the history's queue is busy (as under
        // load): a record that read the file once its turn came would find only the second.
        let follower = try #require(opened.folding)
        let release = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (busy: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { follower.withFolder { _ in busy.resume(); release.wait() } }
        }
        let path = try #require(await opened.store.dispatch(.addTodo(Todo(title: "Milk"))).createdPath)
        let first = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
        #expect(await opened.store.dispatch(.toggleDone(path: path)).errors.isEmpty)
        release.signal()
        // Another device had the first version and renamed the item: its copy arrives now.
        let copy = "todos/milk.sync-conflict-20261207-120000-PHONE12.md"
        try FixtureFile.write(first.replacingOccurrences(of: "title: Milk", with: "title: Oat milk"), to: folder + "/" + copy)

        // The copy is younger than the quiet period: settle waits for it, then folds it.
        await opened.settle()
        let merged = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
        #expect(merged.contains("title: Oat milk") && merged.contains("done: true"), "\(merged)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + copy))
        #expect(opened.conflictStatuses.isEmpty)
        #expect(opened.store.state[copy] == nil && opened.store.state.todo(at: path)?.title == "Oat milk")
    }
}
