import FolioTestSupport
import Foundation
import Testing

/// The shared-folder setups docs/sync.md and docs/shared-folders.md give, run as a user would: `folio watch A B`
/// between a working folder and a Syncthing folder that gets a conflict copy, and two
/// folio processes on one state folder.
@Suite(.onAThreadOfItsOwn) struct SharedFolderCommandTests {
    static let recipe = "---\ntitle: Soup\nkind: recipe\ntime: 15m\nservings: 4\n---\nHot.\n"

    @Test func theReadmesPairSetupFoldsASyncthingCopyOnTheSyncSide() async throws {
        // `folio watch ~/Recipes ~/Sync/Recipes`: the laptop's edit reached the Sync
        // folder; Syncthing then kept it as a copy there and put the phone's edit in place.
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let recipes = root.appendingPathComponent("Recipes"), sync = root.appendingPathComponent("Sync")
        for folder in [recipes, sync] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data(Self.recipe.utf8).write(to: recipes.appendingPathComponent("r.md"))
        let (process, out, err) = try WatchCommandTests().start(["watch", recipes.path, sync.path, "--state", root.appendingPathComponent("state").path, "--quiet", "10ms"])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "in step (Ctrl-C stops)"))
        func waitFor(file: String = #fileID, line: Int = #line, _ condition: () -> Bool) -> Bool {
            let started = ContinuousClock.now
            defer { LongWaits.note(since: started, "the folder", file: file, line: line) }
            let deadline = Date().addingTimeInterval(15)
            while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return condition()
        }
        func read(_ url: URL) -> String? { FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) } }
        #expect(waitFor { read(sync.appendingPathComponent("r.md")) == Self.recipe })
        let mine = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        try Data(mine.utf8).write(to: recipes.appendingPathComponent("r.md"), options: .atomic)
        #expect(waitFor { read(sync.appendingPathComponent("r.md")) == mine })
        // Syncthing's doing, in the Sync folder: the copy first, then the phone's version.
        let copy = sync.appendingPathComponent("r.sync-conflict-20261201-120000-ABCDEFG.md")
        try FileManager.default.moveItem(at: sync.appendingPathComponent("r.md"), to: copy)
        try Data(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6").utf8).write(to: sync.appendingPathComponent("r.md"), options: .atomic)
        let both = mine.replacingOccurrences(of: "servings: 4", with: "servings: 6")
        #expect(waitFor { read(recipes.appendingPathComponent("r.md")) == both && read(sync.appendingPathComponent("r.md")) == both && read(copy) == nil },
                "\(out.text)\(err.text)")
        #expect(await out.wait(for: "folded  r.sync-conflict-20261201-120000-ABCDEFG.md into r.md"), "\(out.text)")
    }

    @Test func aSecondFolioOnOneStateFolderWaitsThenExits2NamingTheFirst() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Recipes"), state = root.appendingPathComponent("state").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (process, _, err) = try WatchCommandTests().start(["watch", folder.path, "--state", state])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "Ctrl-C stops"))
        let started = Date()
        let second = try await FolioBinary.run(["fold", folder.path, "--state", state])
        #expect(second.status == 2)
        #expect(second.stderr.contains("is in use by another folio process (pid \(process.processIdentifier))"), "\(second.stderr)")
        #expect(Date().timeIntervalSince(started) >= 4.5)
    }

    @Test func aFolderMadeAgainAtTheWatchedPathIsTheOneFolded() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Recipes"), state = root.appendingPathComponent("state").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.recipe.utf8).write(to: folder.appendingPathComponent("r.md"))
        let (process, out, err) = try WatchCommandTests().start(["watch", folder.path, "--state", state])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "Ctrl-C stops"))
        // `rm -rf Recipes` and `git clone … Recipes`: another folder at the path, whose
        // file came with a copy of itself (a sync tool's, left over).
        try FileManager.default.removeItem(at: folder)
        #expect(await err.wait(for: "the watched folder was removed or moved", timeout: 30), "\(err.text)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.recipe.utf8).write(to: folder.appendingPathComponent("r.md"))
        let copy = folder.appendingPathComponent("r.sync-conflict-20261201-120000-ABCDEFG.md")
        try Data(Self.recipe.utf8).write(to: copy)
        #expect(await out.wait(for: "r.sync-conflict-20261201-120000-ABCDEFG.md into r.md", timeout: 30), "\(out.text)\(err.text)")
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("r.md").path) == Data(Self.recipe.utf8))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".folio").path), "the new folder's own history")
    }

    /// A todo written, `folio watch DIR` started, the todo edited right after "watching"
    /// and a copy made from the first version beside it: the first version was recorded
    /// before "watching" (not passed over while it was too fresh), so the copy folds. A
    /// folder no sync tool shares gets no `.folio/` until the copy shows it is shared.
    @Test func anEditRightAfterWatchingStartsHasItsBase() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Todos"), state = root.appendingPathComponent("state").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let todo = "---\ntitle: Fix the bike\nkind: todo\npriority: low\ndue: 2026-12-10\n---\nThe chain.\n"
        let file = folder.appendingPathComponent("bike.md")
        try Data(todo.utf8).write(to: file)
        let (process, out, err) = try WatchCommandTests().start(["watch", folder.path, "--state", state])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "Ctrl-C stops"))
        let mine = todo.replacingOccurrences(of: "priority: low", with: "priority: high")
        try Data(mine.utf8).write(to: file)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".folio").path), "nothing in a folder no sync tool shares")
        try Data(todo.replacingOccurrences(of: "due: 2026-12-10", with: "due: 2026-12-12").utf8)
            .write(to: folder.appendingPathComponent("bike.sync-conflict-20261201-120000-ABCDEFG.md"))
        #expect(await out.wait(for: "folded bike.sync-conflict-20261201-120000-ABCDEFG.md into bike.md (base: history)", timeout: 20), "\(out.text)\(err.text)")
        #expect(FileManager.default.contents(atPath: file.path) == Data(mine.replacingOccurrences(of: "due: 2026-12-10", with: "due: 2026-12-12").utf8))
    }
}
