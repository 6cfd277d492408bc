import Foundation
import Testing

/// `folio merge-file` and `folio git-setup`, run as git users run them, and a real
/// `git merge` with Folio as the merge driver.
@Suite struct MergeCommandTests {
    static let recipe = """
        ---
        title: Carbonara
        time: 15m
        servings: 2
        tags: [pasta]
        ingredients:
          - name: spaghetti
            quantity: 400g
          - name: guanciale
            quantity: 150g
        ---
        Con uova.

        ## Steps
        1. Boil the pasta.
        2. Fry the guanciale.

        """

    /// Runs a program in `folder` with a scratch HOME, so no user configuration applies.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], in folder: URL, home: URL) throws -> FolioBinary.Run {
        let process = Process()
        process.executableURL = program.hasPrefix("/") ? URL(fileURLWithPath: program) : URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["XDG_CONFIG_HOME"] = home.path + "/.config"
        for (key, value) in ["GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org", "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org"] {
            environment[key] = value
        }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile(), errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return FolioBinary.Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func mergeFileMatchesGitOnTextAndMergesDocuments() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        // Plain text: git's answer, markers labelled with the file names.
        try write("base.txt", "a\nb\nc\n")
        try write("ours.txt", "a\nB\nc\n")
        try write("theirs.txt", "a\nb2\nc\n")
        let text = try await FolioBinary.run(["merge-file", "-p", "ours.txt", "base.txt", "theirs.txt"], in: folder)
        #expect(text.status == 1)
        #expect(text.stdout == "a\n<<<<<<< ours.txt\nB\n=======\nb2\n>>>>>>> theirs.txt\nc\n")
        // Without -p the result replaces the current file.
        #expect(try await FolioBinary.run(["merge-file", "--theirs", "ours.txt", "base.txt", "theirs.txt"], in: folder).status == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("ours.txt"), encoding: .utf8) == "a\nb2\nc\n")
        // A document: adjacent field edits merge.
        try write("base.md", Self.recipe)
        try write("ours.md", Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"))
        try write("theirs.md", Self.recipe.replacingOccurrences(of: "servings: 2", with: "servings: 4"))
        let document = try await FolioBinary.run(["merge-file", "-p", "-L", "a", "-L", "b", "-L", "c", "ours.md", "base.md", "theirs.md"], in: folder)
        #expect(document.status == 0)
        #expect(document.stdout == Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4"))
        // Errors and bad usage, as git reports them.
        #expect(try await FolioBinary.run(["merge-file", "ours.md", "missing.md", "theirs.md"], in: folder).status == 255)
        #expect(try await FolioBinary.run(["merge-file", "ours.md", "base.md"], in: folder).status == 129)
    }

    @Test func gitMergeWithTheFolioDriver() async throws {
        let repo = try FolioBinary.temporaryFolder(), home = try FolioBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: repo)
            try? FileManager.default.removeItem(at: home)
        }
        func git(_ arguments: String...) throws -> FolioBinary.Run { try Self.run("git", arguments, in: repo, home: home) }
        func write(_ text: String) throws { try Data(text.utf8).write(to: repo.appendingPathComponent("carbonara.md")) }
        guard try git("init", "-q", "-b", "main").status == 0 else {
            Issue.record("git is not installed (apt-get install git)")
            return
        }
        try write(Self.recipe)
        _ = try git("add", ".")
        _ = try git("commit", "-qm", "base")
        _ = try git("checkout", "-qb", "anna")
        try write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
            .replacingOccurrences(of: "tags: [pasta]", with: "tags: [pasta, quick]")
            .replacingOccurrences(of: "    quantity: 150g\n---", with: "    quantity: 150g\n  - name: pecorino\n    quantity: 50g\n---"))
        _ = try git("commit", "-qam", "anna")
        _ = try git("checkout", "-q", "main")
        try write(Self.recipe.replacingOccurrences(of: "servings: 2", with: "servings: 4")
            .replacingOccurrences(of: "tags: [pasta]", with: "tags: [pasta, roman]")
            .replacingOccurrences(of: "    quantity: 150g\n---", with: "    quantity: 150g\n  - name: eggs\n    quantity: 4\n---"))
        _ = try git("commit", "-qam", "ben")
        // Plain git conflicts on every one of these.
        #expect(try git("merge", "-q", "--no-edit", "anna").status != 0)
        _ = try git("merge", "--abort")
        // With Folio as the merge driver, every change of both sides lands.
        let setup = try Self.run(FolioBinary.url.path, ["git-setup", repo.path], in: repo, home: home)
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try Self.run(FolioBinary.url.path, ["git-setup", repo.path], in: repo, home: home).stdout.contains("already has"))
        _ = try git("add", ".gitattributes")
        _ = try git("commit", "-qm", "folio merges Markdown")
        let merge = try git("merge", "-q", "--no-edit", "anna")
        #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
        let merged = try String(contentsOf: repo.appendingPathComponent("carbonara.md"), encoding: .utf8)
        #expect(merged == Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
            .replacingOccurrences(of: "servings: 2", with: "servings: 4")
            .replacingOccurrences(of: "tags: [pasta]", with: "tags: [pasta, roman, quick]")
            .replacingOccurrences(of: "    quantity: 150g\n---", with: "    quantity: 150g\n  - name: eggs\n    quantity: 4\n  - name: pecorino\n    quantity: 50g\n---"))
        // A real conflict still stops the merge, with markers around the title only.
        _ = try git("checkout", "-qb", "carla")
        try write(merged.replacingOccurrences(of: "title: Carbonara", with: "title: Carbonara di Carla"))
        _ = try git("commit", "-qam", "carla")
        _ = try git("checkout", "-q", "main")
        try write(merged.replacingOccurrences(of: "title: Carbonara", with: "title: Carbonara romana"))
        _ = try git("commit", "-qam", "dario")
        let conflict = try git("merge", "--no-edit", "carla")
        #expect(conflict.status == 1)
        #expect(conflict.stdout.contains("CONFLICT (content): Merge conflict in carbonara.md"))
        let marked = try String(contentsOf: repo.appendingPathComponent("carbonara.md"), encoding: .utf8)
        #expect(marked == merged.replacingOccurrences(
            of: "title: Carbonara\n", with: "<<<<<<< ours\ntitle: Carbonara romana\n=======\ntitle: Carbonara di Carla\n>>>>>>> theirs\n"))
    }

    @Test func gitSetupGlobalWritesTheUsersConfigurationOnce() async throws {
        let home = try FolioBinary.temporaryFolder(), folder = try FolioBinary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: folder)
        }
        for _ in 0..<2 {
            let run = try Self.run(FolioBinary.url.path, ["git-setup", "--global"], in: folder, home: home)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let driver = try Self.run("git", ["config", "--global", "merge.folio.driver"], in: folder, home: home).stdout
        #expect(driver.hasSuffix(" merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B\n"))
        let attributes = try String(contentsOf: home.appendingPathComponent(".config/git/attributes"), encoding: .utf8)
        #expect(attributes == "*.md merge=folio\n*.markdown merge=folio\n")
    }

    @Test func mergeFileWritesAtomicallyAndKeepsTheMode() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.txt")
        try Data("a\nb\nc\n".utf8).write(to: ours)
        try Data("a\nb\nc\n".utf8).write(to: folder.appendingPathComponent("base.txt"))
        try Data("a\nb\nc\nd\n".utf8).write(to: folder.appendingPathComponent("theirs.txt"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: ours.path)
        let before = try FileManager.default.attributesOfItem(atPath: ours.path)[.systemFileNumber] as? Int
        let run = try await FolioBinary.run(["merge-file", "ours.txt", "base.txt", "theirs.txt"], in: folder)
        #expect(run.status == 0)
        #expect(try String(contentsOf: ours, encoding: .utf8) == "a\nb\nc\nd\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: ours.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // A new file renamed into place, not the old one rewritten where it stood.
        #expect((attributes[.systemFileNumber] as? Int) != before)
    }
}
