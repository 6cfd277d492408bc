import Foundation
import FolioTestSupport
import Testing

/// A shared folder that is also a git work tree, with real git, run as a user runs
/// folio: nothing is written while git is in the middle of a merge or a rebase (a copy
/// arriving waits), a checkout or a stash is git's write and never a version the sync
/// tool dropped, and the history stays out of git.
@Suite(.onAThreadOfItsOwn) struct GitWorkTreeTests {
    static let recipe = "---\ntitle: Soup\nkind: recipe\ntime: 15m\nservings: 4\n---\nHot.\n"
    static let copy = "u.sync-conflict-20261201-120000-ABCDEFG.md"

    /// A repository `d` with r.md and s.md committed on main and u.md not in git (synced
    /// by Syncthing only), and a state folder.
    struct Repository {
        let root: URL
        let git: String
        var dir: String { root.appendingPathComponent("d").path }
        var state: String { root.appendingPathComponent("s").path }

        init?() throws {
            guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return nil }
            self.git = git
            root = try FolioBinary.temporaryFolder()
            try FileManager.default.createDirectory(atPath: root.appendingPathComponent("d").path, withIntermediateDirectories: true)
            try write(GitWorkTreeTests.recipe, "r.md")
            try write(GitWorkTreeTests.recipe.replacingOccurrences(of: "Soup", with: "Stew"), "s.md")
            try runNow(["init", "-q", "-b", "main"])
            try runNow(["add", "r.md", "s.md"])
            try runNow(["commit", "-qm", "first"])
            try write(GitWorkTreeTests.recipe.replacingOccurrences(of: "Soup", with: "Stew"), "u.md")
        }

        func write(_ text: String, _ path: String) throws {
            let url = URL(fileURLWithPath: dir + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func read(_ path: String) -> String? {
            FileManager.default.contents(atPath: dir + "/" + path).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Runs git in the repository, away from the user's configuration; its output
        /// (standard output and error together).
        /// ``runNow(_:environment:expect:)`` waited for off the cooperative pool (two
        /// threads here), which the other suites need meanwhile.
        @discardableResult
        func run(_ arguments: [String], environment: [String: String] = [:], expect status: Int32 = 0) async throws -> (status: Int32, output: String) {
            let (process, text) = try await offThePool { [self] in try launch(arguments, environment: environment) }
            #expect(process == status, "git \(arguments.joined(separator: " ")): \(text)")
            return (process, text)
        }

        /// Runs git in the repository now, blocking (for the set-up, before any test runs).
        @discardableResult
        func runNow(_ arguments: [String], environment: [String: String] = [:], expect status: Int32 = 0) throws -> (status: Int32, output: String) {
            let (process, text) = try launch(arguments, environment: environment)
            #expect(process == status, "git \(arguments.joined(separator: " ")): \(text)")
            return (process, text)
        }

        /// git's exit status and output for `arguments`, waited for on this thread.
        private func launch(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
            var variables = ProcessInfo.processInfo.environment
            variables["GIT_CONFIG_NOSYSTEM"] = "1"
            variables["HOME"] = root.path
            for (name, value) in environment { variables[name] = value }
            return try ExternalTool.runShowingOutput(git, ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.editor=true"] + arguments, environment: variables)
        }

        /// `folio fold` of the repository, or of `folder` (relative, as typed in the repository).
        func fold(_ folder: String? = nil) async throws -> FolioBinary.Run {
            try await FolioBinary.run(["fold", folder ?? dir, "--state", state, "--quiet", "0s"], in: URL(fileURLWithPath: dir))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        /// Syncthing brings another device's u.md (a new title) and keeps this device's
        /// edit (servings 6) as a copy beside it: they clash in nothing.
        func copyArrives() throws {
            let stew = GitWorkTreeTests.recipe.replacingOccurrences(of: "Soup", with: "Stew")
            try write(stew.replacingOccurrences(of: "servings: 4", with: "servings: 6"), GitWorkTreeTests.copy)
            try write(stew.replacingOccurrences(of: "title: Stew", with: "title: Stew Deluxe"), "u.md")
        }
    }

    /// A git work tree no sync tool shares: `folio watch` writes nothing into it over
    /// edits, a branch switch and a stash and its pop — git's history is its history.
    @Test func watchWritesNothingIntoAWorkTreeNoSyncToolShares() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        let (process, _, err) = try WatchCommandTests().start(["watch", repo.dir, "--state", repo.state])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "Ctrl-C stops"), "\(err.text)")
        try await repo.run(["checkout", "-qb", "feature"])
        try repo.write(Self.recipe.replacingOccurrences(of: "15m", with: "20m"), "r.md")
        try await repo.run(["commit", "-qam", "feature"])
        try await repo.run(["checkout", "-q", "main"])
        try repo.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 5"), "r.md")
        try await Task.sleep(for: .seconds(1))
        try await repo.run(["stash", "-q"])
        try await Task.sleep(for: .seconds(1))
        try await repo.run(["stash", "pop", "-q"])
        try await Task.sleep(for: .seconds(1.5))
        #expect(try await repo.run(["status", "--porcelain", "--ignored", "--untracked-files=all"]).output == " M r.md\n?? u.md\n")
        #expect(!FileManager.default.fileExists(atPath: repo.dir + "/.folio"))
        #expect(FileManager.default.fileExists(atPath: repo.state + "/history/log"), "its history is in the state folder")
    }

    @Test func duringAConflictedMergeACopyWaitsAndNothingIsWritten() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        #expect(try await repo.fold().status == 0)
        try await repo.run(["checkout", "-qb", "feature"])
        try repo.write(Self.recipe.replacingOccurrences(of: "15m", with: "20m"), "r.md")
        try await repo.run(["commit", "-qam", "feature"])
        try await repo.run(["checkout", "-q", "main"])
        try repo.write(Self.recipe.replacingOccurrences(of: "15m", with: "25m"), "r.md")
        try await repo.run(["commit", "-qam", "main"])
        try await repo.run(["merge", "-q", "feature"], expect: 1)
        let marked = repo.read("r.md")
        #expect(marked?.contains("<<<<<<<") == true)
        try repo.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "<<<<<<< ours\ntime: 30m\n=======\ntime: 35m\n>>>>>>> theirs"), "r.sync-conflict-20261201-130000-ABCDEFG.md")
        try repo.copyArrives()
        let blocked = try await repo.fold()
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains("git is in the middle of a merge (MERGE_HEAD)"), "\(blocked.stderr)")
        #expect(repo.read("r.md") == marked && repo.read(Self.copy) != nil)
        #expect(try await repo.run(["status", "--porcelain"]).output.contains("UU r.md"))
        // git done (the merge taken as main's), the copy folds; the one with markers never does.
        try repo.write(Self.recipe.replacingOccurrences(of: "15m", with: "25m"), "r.md")
        try await repo.run(["add", "r.md"])
        try await repo.run(["commit", "-qm", "merged"])
        let after = try await repo.fold()
        #expect(after.stdout.contains("folded \(Self.copy) into u.md"), "\(after.stdout)\(after.stderr)")
        #expect(after.stdout.contains("the copy holds conflict markers"), "\(after.stdout)")
        #expect(repo.read("u.md")!.contains("servings: 6") && repo.read("u.md")!.contains("Deluxe"))
        // .folio/ keeps itself out of git.
        #expect(try await !repo.run(["status", "--porcelain"]).output.contains(".folio"))
    }

    @Test func duringAStoppedRebaseNothingIsWrittenAndWatchSaysSoOnce() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        // Folio saw the folder before git began.
        #expect(try await repo.fold().status == 0)
        try repo.write(Self.recipe.replacingOccurrences(of: "15m", with: "20m"), "r.md")
        try await repo.run(["commit", "-qam", "second"])
        try await repo.run(["rebase", "-q", "-i", "HEAD~1"], environment: ["GIT_SEQUENCE_EDITOR": "sed -i 1s/^pick/edit/"])
        #expect(FileManager.default.fileExists(atPath: repo.dir + "/.git/rebase-merge"))
        let (process, out, err) = try WatchCommandTests().start(["watch", repo.dir, "--state", repo.state])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "Ctrl-C stops"))
        try repo.copyArrives()
        #expect(await out.wait(for: "waiting: git is in the middle of a rebase (rebase-merge)"), "\(out.text)\(err.text)")
        // Looked at again every second meanwhile, writing nothing and saying nothing more:
        // FoldingFollowerTests moves the follower's clock through that; here, said once
        // over the whole run (below).
        #expect(repo.read(Self.copy) != nil && !repo.read("u.md")!.contains("servings: 6") && repo.read("u.md")!.contains("Deluxe"))
        try await repo.run(["rebase", "--continue"])
        let deadline = Date().addingTimeInterval(20), started = ContinuousClock.now
        while repo.read(Self.copy) != nil && Date() < deadline { try await Task.sleep(for: .seconds(0.1)) }
        LongWaits.note(since: started, "the fold after the rebase")
        #expect(repo.read(Self.copy) == nil && repo.read("u.md")!.contains("servings: 6"), "\(out.text)\(err.text)")
        #expect(out.text.components(separatedBy: "waiting: git").count == 2, "said once: \(out.text)")
    }

    @Test func aCheckoutIsNotAVersionTheSyncToolDropped() async throws {
        // Folio saw r.md on a branch; after a checkout of main a copy arrives: main's r.md
        // gets nothing of the branch's, and no version is "restored".
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        try await repo.run(["checkout", "-qb", "feature"])
        try repo.write(Self.recipe.replacingOccurrences(of: "title: Soup", with: "title: Feature Soup"), "r.md")
        try await repo.run(["commit", "-qam", "feature"])
        #expect(try await repo.fold().status == 0)
        try await repo.run(["checkout", "-q", "main"])
        #expect(try await repo.fold().status == 0)
        let copy = "r.sync-conflict-20261202-090000-EEEEEEE.md"
        try repo.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 8"), copy)
        let run = try await repo.fold()
        #expect(!run.stdout.contains("restored"), "\(run.stdout)")
        #expect(!repo.read("r.md")!.contains("Feature"))
        let names = try FileManager.default.contentsOfDirectory(atPath: repo.dir)
        #expect(!names.contains { $0.contains("FOLIO") }, "\(names)")
    }

    @Test func aStashAndItsPopAreGitsWritesNotEditsOrDrops() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        #expect(try await repo.fold().status == 0)
        let edited = Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 5")
        try repo.write(edited, "r.md")
        #expect(try await repo.fold().status == 0)
        try await repo.run(["stash", "-q"])
        #expect(repo.read("r.md") == Self.recipe)
        #expect(try await repo.fold().status == 0)
        // A copy arrives while the edit is stashed: it folds on HEAD's version (the file's,
        // and the one it was made from), and nothing is restored from the stash.
        let copy = "r.sync-conflict-20261202-100000-FFFFFFF.md"
        let retitled = Self.recipe.replacingOccurrences(of: "title: Soup", with: "title: Spicy Soup")
        try repo.write(retitled, copy)
        let during = try await repo.fold()
        #expect(during.stdout == "folded \(copy) into r.md (base: git)\n", "\(during.stdout)")
        #expect(repo.read("r.md") == retitled)
        // Once that is committed, the stash's edit comes back on top of it.
        try await repo.run(["commit", "-qam", "the copy's title"])
        try await repo.run(["stash", "pop", "-q"])
        let after = try await repo.fold()
        #expect(!after.stdout.contains("restored"), "\(after.stdout)")
        #expect(repo.read("r.md") == retitled.replacingOccurrences(of: "servings: 4", with: "servings: 5"))
        // (This device's own log, in its state folder: alone in keeping a history, it publishes none.)
        let log = try String(contentsOfFile: repo.state + "/history/log", encoding: .utf8)
        #expect(log.contains("\tgit-checkout\t"), "\(log)")
    }

    // Where no device's log names the versions' common ancestor (Folio never saw the file
    // before, or the version both came from), git's history is the base: the newest commit
    // both versions descend from, HEAD for what is not committed.

    static let carbonara = "---\ntitle: Carbonara\nkind: recipe\ntime: 20m\nservings: 2\n---\nEggs, pecorino, guanciale.\n"
    static let carbonaraCopy = "recipes/carbonara.sync-conflict-20261201-101010-ABCDEFG.md"

    /// A recipe committed at HEAD, its `time` edited in the work tree and a copy beside it
    /// with `servings` changed, both made from HEAD's version: folded on HEAD's version, in a
    /// repository folded whole (DIR as given) and in its subfolder `notes/` (`folio fold
    /// notes`); whether Folio first met the file with the copy, or already edited (its log
    /// then holds the path, but not the version both came from).
    @Test(arguments: ["", "notes/"], [false, true])
    func anEditNotCommittedAndACopyOfHeadsVersionFoldOnHeadsVersion(folder: String, editSeen: Bool) async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        let dir = folder.isEmpty ? nil : "notes"
        try repo.write(Self.carbonara, folder + "recipes/carbonara.md")
        try await repo.run(["add", folder + "recipes/carbonara.md"])
        try await repo.run(["commit", "-qm", "carbonara"])
        try repo.write(Self.carbonara.replacingOccurrences(of: "time: 20m", with: "time: 25m"), folder + "recipes/carbonara.md")
        if editSeen { #expect(try await repo.fold(dir).stdout == "") }
        try repo.write(Self.carbonara.replacingOccurrences(of: "servings: 2", with: "servings: 4"), folder + Self.carbonaraCopy)
        let run = try await repo.fold(dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "folded \(Self.carbonaraCopy) into recipes/carbonara.md (base: git)\n")
        let both = Self.carbonara.replacingOccurrences(of: "time: 20m", with: "time: 25m").replacingOccurrences(of: "servings: 2", with: "servings: 4")
        #expect(repo.read(folder + "recipes/carbonara.md") == both)
        #expect(repo.read(folder + Self.carbonaraCopy) == nil)
    }

    /// The file as HEAD holds it and a copy edited from it: HEAD's version is the base, so
    /// the fold takes the copy's edit whole.
    @Test func aFileAsCommittedTakesTheCopysEdit() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        let copy = "r.sync-conflict-20261201-101010-ABCDEFG.md"
        let edited = Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6")
        try repo.write(edited, copy)
        let run = try await repo.fold()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "folded \(copy) into r.md (base: git)\n")
        #expect(repo.read("r.md") == edited && repo.read(copy) == nil)
    }

    /// The file's version committed on one branch (checked out) and the copy's on another,
    /// both from main's: the base is the version of their merge base, not HEAD's (which
    /// would make the copy win whole). A name with spaces, glob characters, a colon and a
    /// letter git would quote.
    @Test func committedVersionsFoldOnTheirMergeBase() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        let file = "recipes/pasta: e fagioli [nonna] *ü.md", copy = "recipes/pasta: e fagioli [nonna] *ü.sync-conflict-20261201-101010-ABCDEFG.md"
        try repo.write(Self.carbonara, file)
        try await repo.run(["add", "--", file])
        try await repo.run(["commit", "-qm", "first"])
        try await repo.run(["checkout", "-qb", "there"])
        let there = Self.carbonara.replacingOccurrences(of: "servings: 2", with: "servings: 4")
        try repo.write(there, file)
        try await repo.run(["commit", "-qam", "there"])
        try await repo.run(["checkout", "-qb", "here", "main"])
        let here = Self.carbonara.replacingOccurrences(of: "time: 20m", with: "time: 25m")
        try repo.write(here, file)
        try await repo.run(["commit", "-qam", "here"])
        try repo.write(there, copy)
        let run = try await repo.fold()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "folded \(copy) into \(file) (base: git)\n")
        #expect(repo.read(file) == here.replacingOccurrences(of: "servings: 2", with: "servings: 4"))
        #expect(repo.read(copy) == nil)
    }

    /// A file no commit ever held (u.md, synced by Syncthing only) has no base in git: the
    /// copy stays, said so.
    @Test func aPathNeverCommittedHasNoBaseInGit() async throws {
        guard let repo = try Repository() else { return }
        defer { repo.remove() }
        try repo.copyArrives()
        let run = try await repo.fold()
        #expect(run.status == 1)
        #expect(run.stdout == "conflict kept u.md: no common ancestor of u.md and the copy is known (the other version stays as \(Self.copy)); "
            + "compare them with folio resolve \(repo.dir) \(Self.copy), then keep one with --keep file or --keep copy\n")
        let deluxe = Self.recipe.replacingOccurrences(of: "title: Soup", with: "title: Stew Deluxe")
        #expect(repo.read("u.md") == deluxe && repo.read(Self.copy) == deluxe.replacingOccurrences(of: "Stew Deluxe", with: "Stew").replacingOccurrences(of: "servings: 4", with: "servings: 6"))
    }
}
