import FolioTestSupport
import Foundation
import Testing

/// `folio watch DIR --git-sync`, run as a user runs it: an edit saved in one clone is
/// committed and pushed once it settles, another clone's push is brought in at the next
/// fetch, and SIGTERM stops it with status 0.
@Suite(.onAThreadOfItsOwn) struct WatchGitSyncCommandTests {
    @Test func anEditIsPushedAndAnotherDevicesCommitBroughtIn() async throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let remote = root.appendingPathComponent("remote.git").path, laptop = root.appendingPathComponent("laptop").path, phone = root.appendingPathComponent("phone").path
        func run(_ arguments: [String]) async throws {
            let done = try await ExternalTool.run(git, ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"] + arguments)
            #expect(done.status == 0, "git \(arguments): \(done.errors)")
        }
        try await run(["init", "-q", "--bare", remote])
        try await run(["clone", "-q", remote, laptop])
        try Data("---\ntitle: Soup\ntime: 15m\n---\n".utf8).write(to: URL(fileURLWithPath: laptop + "/soup.md"))
        try await run(["-C", laptop, "add", "-A"])
        try await run(["-C", laptop, "commit", "-qm", "first"])
        try await run(["-C", laptop, "push", "-q", "-u", "origin", "HEAD:main"])
        try await run(["clone", "-q", remote, phone])
        for clone in [laptop, phone] {
            try await run(["-C", clone, "config", "user.name", "T"])
            try await run(["-C", clone, "config", "user.email", "t@example.org"])
        }
        let (process, out, err) = try WatchCommandTests().start(["watch", laptop, "--git-sync", "--commit-after", "300ms", "--fetch-every", "1s", "--state", root.appendingPathComponent("state").path])
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "Ctrl-C stops"), "\(err.text)")
        try Data("---\ntitle: Soup\ntime: 20m\n---\n".utf8).write(to: URL(fileURLWithPath: laptop + "/soup.md"))
        #expect(await out.wait(for: "pushed 1 commit to origin/main"), "\(out.text)\(err.text)")
        try await run(["-C", phone, "pull", "-q"])
        #expect(FileManager.default.contents(atPath: phone + "/soup.md") == Data("---\ntitle: Soup\ntime: 20m\n---\n".utf8))
        // The phone's commit comes in at the next fetch (every second here).
        try Data("---\ntitle: Bread\n---\n".utf8).write(to: URL(fileURLWithPath: phone + "/bread.md"))
        try await run(["-C", phone, "add", "-A"])
        try await run(["-C", phone, "commit", "-qm", "bread"])
        try await run(["-C", phone, "push", "-q"])
        #expect(await out.wait(for: "fast-forward"), "\(out.text)\(err.text)")
        #expect(FileManager.default.contents(atPath: laptop + "/bread.md") == Data("---\ntitle: Bread\n---\n".utf8))
        // What git brought in is an arrival the store follows, printed as watch prints changes.
        #expect(await out.wait(for: "added bread.md"), "\(out.text)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aFolderThatCannotBeSyncedIsSaidAtOnce() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try await FolioBinary.run(["watch", root.path, "--git-sync"])
        #expect(run.status == 2)
        #expect(run.stderr == "folio watch: \(root.path) is not in a git work tree: run git init (and add a remote), or clone the repository, then sync again\n")
        let pair = try await FolioBinary.run(["watch", root.path, root.path, "--git-sync"])
        #expect(pair.status == 2 && pair.stderr.hasPrefix("folio watch: --git-sync follows one folder"), "\(pair.stderr)")
    }
}
