import Foundation

/// `folio git-setup [REPO] [--global]`: Folio as git's merge driver for Markdown.
enum GitSetupCommand: FolioCommand {
    static let name = "git-setup"
    static let summary = "install Folio as git's merge driver for *.md"
    static let about = """
        Makes git merge Markdown files with Folio's document merge: adds the driver
        [merge "folio"] to REPO's .git/config (default: the repository here), with
          driver = FOLIO merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B
        and the lines '*.md merge=folio' and '*.markdown merge=folio' to its
        .gitattributes. With --global, to ~/.gitconfig and git's global attributes
        file instead, for every repository. Running it again changes nothing.
        """
    static let global = Flag("--global", help: "set it up for every repository (~/.gitconfig and git's global attributes file)")
    static let arguments = ArgumentSpec(flags: [global], positionals: 0...1, positionalNames: "at most one REPO", synopses: ["[REPO]"])

    @MainActor static func run(_ arguments: ParsedArguments) async -> Int32 {
        let global = arguments.isSet(Self.global)
        let repository = arguments.positionals.first ?? FileManager.default.currentDirectoryPath
        guard let folio = Bundle.main.executablePath.map({ URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }) else {
            Output.error("folio git-setup: cannot tell where the folio program is")
            return ExitCode.problems
        }
        let driver = "\(Shell.quoted(folio)) merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B"
        let scope = global ? ["--global"] : []
        let git = ["git"] + (global ? [] : ["-C", repository])
        let attributes: String
        do {
            if !global {
                guard try run(git + ["rev-parse", "--git-dir"]).status == 0 else {
                    Output.error("folio git-setup: \(repository) is not a git repository")
                    return ExitCode.problems
                }
            }
            for (key, value) in [("merge.folio.name", "Folio: Markdown documents merged by field and section"), ("merge.folio.driver", driver)] {
                guard try run(git + ["config"] + scope + [key, value]).status == 0 else {
                    Output.error("folio git-setup: git config \(key) failed")
                    return ExitCode.problems
                }
            }
            if global {
                let configured = try run(["git", "config", "--global", "core.attributesFile"]).output
                let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
                let xdg = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? home + "/.config"
                attributes = configured.isEmpty ? xdg + "/git/attributes" : (configured.hasPrefix("~/") ? home + configured.dropFirst(1) : configured)
            } else {
                let top = try run(git + ["rev-parse", "--show-toplevel"])
                guard top.status == 0, !top.output.isEmpty else {
                    Output.error("folio git-setup: \(repository) has no working tree (a bare repository?): nowhere to put .gitattributes")
                    return ExitCode.problems
                }
                attributes = top.output + "/.gitattributes"
            }
            let existing: String
            if FileManager.default.fileExists(atPath: attributes) {
                // One that is there but cannot be read must not be overwritten as if empty.
                existing = try String(contentsOfFile: attributes, encoding: .utf8)
            } else {
                existing = ""
            }
            let lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            var added: [String] = []
            for line in ["*.md merge=folio", "*.markdown merge=folio"] where !lines.contains(line) { added.append(line) }
            if !added.isEmpty {
                try FileManager.default.createDirectory(
                    atPath: (attributes as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let separator = existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n"
                try Data((existing + separator + added.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: attributes))
            }
            Output.print("git merges Markdown with Folio \(global ? "in every repository" : "in \(repository)"):")
            Output.print("  merge.folio.driver = \(driver)")
            Output.print("  \(attributes): " + (added.isEmpty ? "already has *.md merge=folio" : "added " + added.joined(separator: ", ")))
            return ExitCode.success
        } catch {
            Output.error("folio git-setup: \(error.localizedDescription)")
            return ExitCode.problems
        }
    }

    /// Runs a command; its status and trimmed standard output.
    static func run(_ command: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
