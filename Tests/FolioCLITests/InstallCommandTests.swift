import FolioTestSupport
import Foundation
import Testing

/// Installing `folio` in one step, as a new user does: `folio install` puts the program,
/// its completions and its manual page under a prefix; the completions complete in a
/// real bash; `--version`, `folio help CMD` and "did you mean".
@Suite struct InstallCommandTests {
    @Test func versionAndHelpForOneCommand() async throws {
        let version = try await FolioBinary.run(["--version"])
        #expect(version.status == 0 && version.stdout == "folio 0.1.0-dev\n", "\(version)")
        #expect(try await FolioBinary.run(["--help"]).stdout.contains("'folio --version' for the version"))
        let help = try await FolioBinary.run(["help", "list"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: folio list DIR"), "\(help.stdout)")
    }

    @Test func aMistypedCommandOrOptionGetsADidYouMean() async throws {
        let command = try await FolioBinary.run(["lst"])
        #expect(command.status == 2 && command.stderr.hasPrefix("folio: 'lst' is not a folio command; did you mean 'list'?\n"), "\(command.stderr)")
        let nothingNear = try await FolioBinary.run(["zzzzzz"])
        #expect(nothingNear.stderr.hasPrefix("folio: 'zzzzzz' is not a folio command\n"), "\(nothingNear.stderr)")
        let option = try await FolioBinary.run(["watch", ".", "--retry-evry", "1s"])
        #expect(option.status == 2 && option.stderr.hasPrefix("folio watch: unknown option '--retry-evry'; did you mean '--retry-every'?"), "\(option.stderr)")
        let help = try await FolioBinary.run(["help", "wacth"])
        #expect(help.status == 2 && help.stderr.hasPrefix("folio help: 'wacth' is not a folio command; did you mean 'watch'?"), "\(help.stderr)")
    }

    @Test func installPutsTheProgramItsCompletionsAndItsManualPageUnderThePrefix() async throws {
        let prefix = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let run = try await FolioBinary.run(["install", "--prefix", prefix.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
        let files = ["bin/folio", "share/bash-completion/completions/folio", "share/zsh/site-functions/_folio", "share/fish/vendor_completions.d/folio.fish", "share/man/man1/folio.1"]
        #expect(run.stdout == files.map { "installed \(prefix.path)/\($0)\n" }.joined()
            + "\(prefix.path)/bin is not on your PATH: add it, e.g. echo 'export PATH=\"\(prefix.path)/bin:$PATH\"' >> ~/.profile, then open a new shell\n"
            + "folio 0.1.0-dev: run folio --help to begin\n")
        // The copy runs (from its new place: nothing ties it to the build).
        let copy = try await ExternalTool.runShowing(prefix.path + "/bin/folio", ["--version"])
        #expect(copy.status == 0 && copy.output == "folio 0.1.0-dev\n")
        let man = try String(contentsOfFile: prefix.path + "/share/man/man1/folio.1", encoding: .utf8)
        #expect(man.hasPrefix(".TH FOLIO 1 \"\" \"folio 0.1.0-dev\" \"User Commands\"\n"))
        for command in ["check", "watch", "git\\-sync", "install", "completions"] { #expect(man.contains(".SS \(command) \\(em "), "\(command)") }
    }

    /// What bash offers after `words`, the last being completed, with the script sourced.
    static func bashCompletes(_ words: [String], script: String) async throws -> [String] {
        let line = words.map { "'\($0)'" }.joined(separator: " ")
        let program = "source '\(script)'; COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _folio; printf '%s\\n' \"${COMPREPLY[@]}\""
        let done = try await ExternalTool.runShowing("/bin/bash", ["--norc", "-c", program])
        #expect(done.status == 0, "\(done.output)")
        return done.output.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndTheirValues() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else {
            print("notice: skipping bash's completion test: no /bin/bash")
            return
        }
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.path + "/folio.bash"
        try (try await FolioBinary.run(["completions", "bash"])).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try await Self.bashCompletes(["folio", "ch"], script: script) == ["check"])
        #expect(try await Self.bashCompletes(["folio", "co"], script: script) == ["conflicts", "completions"])
        #expect(try await Self.bashCompletes(["folio", "watch", "--ret"], script: script) == ["--retry-every"])
        #expect(try await Self.bashCompletes(["folio", "resolve", "--keep", ""], script: script) == ["file", "copy"])
        #expect(try await Self.bashCompletes(["folio", "help", "gi"], script: script) == ["git-setup", "git-sync"])
        // A folder is offered where the command takes one.
        try FileManager.default.createDirectory(atPath: folder.path + "/recipes", withIntermediateDirectories: true)
        #expect(try await Self.bashCompletes(["folio", "check", folder.path + "/rec"], script: script) == [folder.path + "/recipes"])
    }

    @Test(arguments: ["zsh", "fish"])
    func zshAndFishReadTheirScripts(shell: String) async throws {
        guard let program = ExternalTool.find([shell], install: "apt-get install \(shell)") else { return }
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.path + "/folio.\(shell)"
        let made = try await FolioBinary.run(["completions", shell])
        #expect(made.status == 0)
        try made.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        // Parsed without running: zsh -n, fish --no-execute.
        let parsed = try await ExternalTool.runShowing(program, shell == "zsh" ? ["-n", script] : ["--no-execute", script])
        #expect(parsed.status == 0 && parsed.output.isEmpty, "\(parsed.output)")
        let refused = try await FolioBinary.run(["completions", "tcsh"])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("folio completions: SHELL must be one of bash, zsh, fish, not tcsh"), "\(refused.stderr)")
    }

    /// git-setup writes the command as it was run: through a link, the link (not the build
    /// folder it points into); from the PATH, `folio`.
    @Test func gitSetupWritesTheCommandAsItWasRun() async throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repo = folder.path + "/repo", bin = folder.path + "/bin"
        #expect(try await ExternalTool.runShowing(git, ["init", "-q", repo]).status == 0)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/folio", withDestinationPath: FolioBinary.url.path)
        let environment = ["HOME": folder.path, "GIT_CONFIG_NOSYSTEM": "1", "PATH": bin + ":/usr/bin:/bin"]
        let linked = try await ExternalTool.runShowing(bin + "/folio", ["git-setup", repo], environment: environment)
        #expect(linked.status == 0, "\(linked.output)")
        #expect(linked.output.contains("Commit .gitattributes; each clone runs folio git-setup once as well."))
        let driver = try await ExternalTool.runShowing(git, ["-C", repo, "config", "merge.folio.driver"])
        #expect(driver.output == "\(bin)/folio merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B\n", "\(driver.output)")
        let fromPath = try await ExternalTool.runShowing("/usr/bin/env", ["folio", "git-setup", repo], environment: environment)
        #expect(fromPath.status == 0, "\(fromPath.output)")
        let again = try await ExternalTool.runShowing(git, ["-C", repo, "config", "merge.folio.driver"])
        #expect(again.output == "folio merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B\n", "\(again.output)")
    }
}
