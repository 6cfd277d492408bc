import Foundation
import FolioTestSupport
import Testing
@testable import FolioStore
@testable import FolioWatch

/// A real vim, run non-interactively on a copy of a Fixtures/ recipe while the
/// watcher runs: the store sees the editor's save, whichever way vim writes.
@MainActor
@Suite struct RealEditorTests {
    @Test(arguments: ["yes", "no", "auto"])
    func theWatcherSeesARealVimSave(backupcopy: String) async throws {
        guard let vim = ExternalTool.find(["vim", "vim.tiny", "vim.basic"], install: "apt-get install vim-tiny") else { return }
        let path = "recipes/pasta-alla-carbonara.md"
        let original = try String(contentsOf: Corpora.packageRoot.appendingPathComponent("Fixtures/" + path), encoding: .utf8)
        #expect(original.contains("time: 15m"))
        let harness = try await WatchHarness(files: [path: original])
        defer { harness.finish() }
        let (status, errors) = try await ExternalTool.run(
            vim, ["-u", "NONE", "-i", "NONE", "-Es", "-c", "set backupcopy=\(backupcopy) writebackup", "-c", "%s/time: 15m/time: 20m/", "-c", "wq", path],
            in: harness.root)
        #expect(status == 0, "vim failed: \(errors)")
        let seen = await harness.waitUntil { harness.storeText(path)?.contains("time: 20m") == true }
        #expect(seen)
        await harness.watcher.settle()
        #expect(harness.storeText(path) == original.replacingOccurrences(of: "time: 15m", with: "time: 20m"))
        #expect(Array(harness.store.state.records.keys) == [path])
    }
}
