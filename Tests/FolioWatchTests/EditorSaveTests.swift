import Foundation
import Testing
@testable import FolioStore
@testable import FolioSystem
import FolioTestSupport
@testable import FolioWatch

/// Each editor's exact sequence of file operations when it saves, replayed on a real
/// folder while the watcher runs: the store must end with the one up-to-date document,
/// announce it once, and never list a scratch file.
@MainActor
@Suite struct EditorSaveTests {
    nonisolated static let path = "recipes/carbonara.md"
    nonisolated static let before = "---\ntitle: Carbonara\ntime: 15m\n---\nCon uova.\n"
    nonisolated static let after = "---\ntitle: Carbonara\ntime: 20m\n---\nCon uova e guanciale.\n"

    /// The operations, as the editors' own sources and `strace` show them.
    enum Editor: String, CaseIterable {
        case vimBackupCopyYes, vimBackupCopyNo, emacs, vsCode, jetBrains, sublime

        func save(in folder: String, name: String = "carbonara.md", text after: String = EditorSaveTests.after) throws {
            let file = folder + "/" + name
            let fm = FileManager.default
            func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
            // Editors replace scratch files left from an earlier save.
            for scratch in [name + "~", "." + name + ".swp", "." + name + ".swx", "#" + name + "#", ".#" + name, "4913", name + "___jb_tmp___", ".subl5f3a.tmp"] {
                try? fm.removeItem(atPath: folder + "/" + scratch)
            }
            switch self {
            case .vimBackupCopyYes:
                // Swap file while editing; on :w the 4913 probe, a backup copy, the file overwritten in place.
                try write("swap", folder + "/." + name + ".swp")
                try write("", folder + "/4913")
                try fm.removeItem(atPath: folder + "/4913")
                try fm.copyItem(atPath: file, toPath: file + "~")
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(after.utf8))
                try handle.close()
                try fm.removeItem(atPath: file + "~")
                try fm.removeItem(atPath: folder + "/." + name + ".swp")
            case .vimBackupCopyNo:
                // The original renamed to the backup name, a new file written, the backup removed.
                try write("swap", folder + "/." + name + ".swp")
                try write("swap", folder + "/." + name + ".swx")
                try fm.removeItem(atPath: folder + "/." + name + ".swx")
                try write("", folder + "/4913")
                try fm.removeItem(atPath: folder + "/4913")
                try fm.moveItem(atPath: file, toPath: file + "~")
                try write(after, file)
                try fm.removeItem(atPath: file + "~")
                try fm.removeItem(atPath: folder + "/." + name + ".swp")
            case .emacs:
                // Lock symlink, auto-save file, backup by rename, new file, auto-save and lock removed.
                try fm.createSymbolicLink(atPath: folder + "/.#" + name, withDestinationPath: "user@host.1234:1700000000")
                try write(after, folder + "/#" + name + "#")
                try fm.moveItem(atPath: file, toPath: file + "~")
                try write(after, file)
                try fm.removeItem(atPath: folder + "/#" + name + "#")
                try fm.removeItem(atPath: folder + "/.#" + name)
            case .vsCode:
                // Truncated to nothing, then written in place.
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
                try handle.truncate(atOffset: 0)
                try handle.synchronize()
                try handle.close()
                let again = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
                try again.write(contentsOf: Data(after.utf8))
                try again.close()
            case .jetBrains:
                // Safe write: a temporary file, the original deleted, the temporary renamed.
                try write(after, file + "___jb_tmp___")
                try fm.removeItem(atPath: file)
                try fm.moveItem(atPath: file + "___jb_tmp___", toPath: file)
            case .sublime:
                // atomic_save: a hidden temporary file renamed over the original.
                try write(after, folder + "/.subl5f3a.tmp")
                guard rename(folder + "/.subl5f3a.tmp", file) == 0 else { throw POSIXError(.EIO) }
            }
        }
    }

    @Test(arguments: Editor.allCases)
    func theStoreEndsWithTheSavedDocumentOnly(editor: Editor) async throws {
        // The default quiet period (50 ms), as the issue states the VS Code rule.
        var options = WatchHarness.fastOptions
        options.quietPeriod = WatchOptions().quietPeriod
        let harness = try await WatchHarness(files: [Self.path: Self.before, "todos/milk.md": "---\ntitle: Milk\n---\n"], options: options)
        defer { harness.finish() }
        try editor.save(in: harness.root + "/recipes")
        // No forced read: the watcher's own quiet period decides when the batch is read.
        let updated = await harness.waitUntil { harness.storeText(Self.path) == Self.after }
        #expect(updated, "\(editor): the store never saw the save")
        await harness.watcher.settle()
        await harness.drainChanges()
        #expect(Set(harness.store.state.records.keys) == [Self.path, "todos/milk.md"], "\(editor)")
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()), "\(editor)")
        let touched = harness.changeSets.flatMap { $0.added + $0.updated + $0.removed + $0.moved.flatMap { [$0.from, $0.to] } }
        #expect(touched == [Self.path], "\(editor): announced \(harness.changeSets)")
    }
}
