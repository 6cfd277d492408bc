import FolioTestSupport
import Foundation
import Testing

/// `folio git-sync DIR`, run as a user runs it, and stopped as the world stops it: killed
/// (SIGKILL) after each git command a pass runs, or finding the disk full before one.
/// Whatever step it was at, the next pass completes the sync — every edit of both
/// devices in the files, nothing left mid-merge or mid-rebase, no markers committed, the
/// remote moved forward only — and says it is in step.
@Suite(.onAThreadOfItsOwn) struct GitSyncCommandTests {
    static let recipe = ConflictCopyFixture.recipe
    static func recipe(_ changes: [(String, String)]) -> String { ConflictCopyFixture.recipe(changes) }
    static let merged = recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")])

    /// A remote, a laptop that has pushed a change to one field, and a phone that changed
    /// another field of the same record and added a record, not committed yet: the
    /// phone's pass commits, fetches, merges (or rebases) and pushes.
    struct Scene {
        let root: URL
        /// Where the wrapper and its count live (off a disk the test fills).
        let tools: URL
        let git: String
        var remote: String { root.appendingPathComponent("remote.git").path }
        var phone: String { root.appendingPathComponent("phone").path }
        var state: String { root.appendingPathComponent("state").path }
        /// A folder on the PATH ahead of git's, holding the `git` that stops the pass.
        var wrapper: String { tools.appendingPathComponent("bin").path }
        var counter: String { tools.appendingPathComponent("calls").path }

        init(in root: URL, tools: URL? = nil, git: String, rebase: Bool) async throws {
            self.root = root
            self.tools = tools ?? root
            self.git = git
            let laptop = root.appendingPathComponent("laptop").path
            try await run(["init", "-q", "--bare", "-b", "main", remote])
            try await run(["clone", "-q", remote, laptop])
            try GitSyncCommandTests.write(GitSyncCommandTests.recipe, to: laptop + "/r.md")
            try await run(["-C", laptop, "add", "-A"])
            try await run(["-C", laptop, "commit", "-qm", "first"])
            try await run(["-C", laptop, "push", "-q", "origin", "HEAD:main"])
            try await run(["clone", "-q", remote, phone])
            if rebase { try await run(["-C", phone, "config", "pull.rebase", "true"]) }
            try GitSyncCommandTests.write(GitSyncCommandTests.recipe([("time: 15m", "time: 20m")]), to: laptop + "/r.md")
            try await run(["-C", laptop, "commit", "-qam", "time"])
            try await run(["-C", laptop, "push", "-q"])
            try GitSyncCommandTests.write(GitSyncCommandTests.recipe([("servings: 4", "servings: 6")]), to: phone + "/r.md")
            try GitSyncCommandTests.write("---\ntitle: Bread\n---\n", to: phone + "/bread.md")
            try FileManager.default.createDirectory(atPath: wrapper, withIntermediateDirectories: true)
        }

        /// git away from the user's and the system's configuration, with an identity.
        var environment: [String: String] {
            ["HOME": root.path, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org",
             "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org"]
        }

        @discardableResult
        func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let (git, environment) = (git, ProcessInfo.processInfo.environment.merging(environment) { $1 })
            let done = try await offThePool { try ExternalTool.runShowingOutput(git, arguments, environment: environment) }
            #expect(done.status == 0, "git \(arguments.joined(separator: " ")): \(done.output)", sourceLocation: sourceLocation)
            return done.output
        }

        /// The phone's pass, with the wrapper's `git` first on the PATH: it counts the
        /// calls, and at call `call` does `stop` (a shell command; `$PPID` is folio).
        func pass(stoppingAt call: Int? = nil, by stop: String = ":") async throws -> FolioBinary.Run {
            let script = """
                #!/bin/sh
                n=$(( $(cat '\(counter)' 2>/dev/null || echo 0) + 1 )); echo $n > '\(counter)'; echo "$*" >> '\(counter).log'
                if [ "$n" = "\(call ?? -1)" ]; then \(stop); fi
                exec '\(git)' "$@"
                """
            try GitSyncCommandTests.write(script, to: wrapper + "/git")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper + "/git")
            try? FileManager.default.removeItem(atPath: counter)
            try? FileManager.default.removeItem(atPath: counter + ".log")
            var variables = environment
            variables["PATH"] = wrapper + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            // A pass that does not end (it once tried a skip git could not make for ever) fails here.
            let run = try await FolioBinary.run(["git-sync", phone, "--state", state, "--device", "PHONE"], environment: variables, timeout: 120)
            return try #require(run, "folio git-sync did not end within 120 s (git commands so far: \(calls))")
        }

        /// The git commands the last pass ran, one line each.
        var commands: String { (try? String(contentsOfFile: counter + ".log", encoding: .utf8)) ?? "" }

        /// How many times the last pass called git.
        var calls: Int { Int((try? String(contentsOfFile: counter, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0 }

        /// Checks the phone after the pass that completed the sync: both edits in the
        /// file, the new record, nothing mid-way, no markers, pushed, and git's stores sound.
        func checkSynced(after what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            func read(_ path: String) -> String? { FileManager.default.contents(atPath: phone + "/" + path).map { String(decoding: $0, as: UTF8.self) } }
            #expect(read("r.md") == GitSyncCommandTests.merged, "\(what): r.md is \(read("r.md") ?? "gone")", sourceLocation: sourceLocation)
            #expect(read("bread.md") == "---\ntitle: Bread\n---\n", "\(what)", sourceLocation: sourceLocation)
            #expect(try await run(["-C", phone, "status", "--porcelain"]) == "", "\(what)", sourceLocation: sourceLocation)
            let gitDir = phone + "/.git/"
            for underWay in ["MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "index.lock"] {
                #expect(!FileManager.default.fileExists(atPath: gitDir + underWay), "\(what): \(underWay) left", sourceLocation: sourceLocation)
            }
            #expect(try await !run(["-C", phone, "log", "-p", "--all"]).contains("<<<<<<<"), "\(what)", sourceLocation: sourceLocation)
            let head = try await run(["-C", phone, "rev-parse", "HEAD"]), pushed = try await run(["-C", remote, "rev-parse", "main"])
            #expect(head == pushed, "\(what): the phone's head is not the remote's", sourceLocation: sourceLocation)
            try await run(["-C", phone, "fsck", "--no-progress", "--strict"], sourceLocation: sourceLocation)
            try await run(["-C", remote, "fsck", "--no-progress", "--strict"], sourceLocation: sourceLocation)
        }
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// How many git commands an uninterrupted pass runs (each is a step to stop after).
    static func callsOfAWholePass(git: String, rebase: Bool) async throws -> Int {
        try await aWholePass(git: git, rebase: rebase).calls
    }

    /// The git commands an uninterrupted pass runs: how many, and each.
    static func aWholePass(git: String, rebase: Bool) async throws -> (calls: Int, commands: String) {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let scene = try await Scene(in: root, git: git, rebase: rebase)
        let whole = try await scene.pass()
        #expect(whole.status == 0, "\(whole.stdout)\(whole.stderr)")
        try await scene.checkSynced(after: "an uninterrupted pass")
        return (scene.calls, scene.commands)
    }

    @Test(arguments: [false, true])
    func aPassKilledAfterAnyGitCommandIsCompletedByTheNext(rebase: Bool) async throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let steps = try await Self.callsOfAWholePass(git: git, rebase: rebase)
        #expect(steps >= 6, "a pass ran only \(steps) git commands")
        for step in 1...steps {
            let root = try FolioBinary.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            let scene = try await Scene(in: root, git: git, rebase: rebase)
            // git's step runs to its end; folio is killed before it sees the outcome.
            let killed = try await scene.pass(stoppingAt: step, by: "'\(git)' \"$@\"; kill -9 $PPID; exit 0")
            #expect(killed.status == SIGKILL, "after git command \(step): status \(killed.status) \(killed.stderr)")
            let next = try await scene.pass()
            #expect(next.status == 0, "the pass after a kill after git command \(step) of \(steps): \(next.stdout)\(next.stderr)")
            try await scene.checkSynced(after: "killed after git command \(step) of \(steps)\(rebase ? " (rebase)" : "")")
        }
    }

    @Test(arguments: [false, true])
    func aPassFindingTheDiskFullAtAnyGitCommandIsCompletedOnceThereIsRoom(rebase: Bool) async throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let (steps, whole) = try await Self.aWholePass(git: git, rebase: rebase)
        var unreached: [String] = []
        defer {
            if !unreached.isEmpty { print("note: the disk was not filled at \(unreached.count) of \(steps) steps\(rebase ? " (rebase)" : ""): \(unreached.joined(separator: "\n"))\nan uninterrupted pass ran:\n\(whole)") }
        }
        for step in 1...steps {
            let root = try FolioBinary.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            // The work tree, the remote and the state on one small disk.
            guard let disk = try FoldCommandTests.mountTmpfs(at: root.appendingPathComponent("disk"), size: "8m") else { return }
            defer { _ = try? ExternalTool.run("/bin/umount", [disk.path]) }
            let scene = try await Scene(in: disk, tools: root, git: git, rebase: rebase)
            let filler = disk.appendingPathComponent("filler").path
            let full = try await scene.pass(stoppingAt: step, by: "dd if=/dev/zero of='\(filler)' bs=64k 2>/dev/null")
            // A pass may take a shorter road than the counted one (seen once, under a full
            // suite's load): then the disk was never filled at this step. Said, and the pass
            // after must still complete; more than two such steps fail below.
            if FileManager.default.fileExists(atPath: filler) {
                try FileManager.default.removeItem(atPath: filler)
            } else {
                unreached.append("git command \(step): that pass ran \(scene.calls) (status \(full.status) \(full.stderr)):\n\(scene.commands)")
            }
            let next = try await scene.pass()
            #expect(next.status == 0, "the pass after the disk was full at git command \(step) of \(steps) (that pass: \(full.status) \(full.stderr)): \(next.stdout)\(next.stderr)")
            try await scene.checkSynced(after: "the disk full at git command \(step) of \(steps)\(rebase ? " (rebase)" : "") (that pass: \(full.status) \(full.stdout)\(full.stderr); the next: \(next.stdout)\(next.stderr))")
        }
        #expect(unreached.count <= 2, "the disk was filled at only \(steps - unreached.count) of \(steps) git commands: \(unreached.joined(separator: "\n"))\nan uninterrupted pass ran:\n\(whole)")
    }
}
