import FolioSystem
import Foundation

/// `folio git-setup [REPO] [--global]`: Folio as git's merge driver for Markdown.
enum GitSetupCommand: FolioCommand {
    /// The command git runs for a merge: `folio` when this program was found on the PATH
    /// (no slash in how it was invoked), else the path it was invoked by, made absolute,
    /// links not followed (`~/.local/bin/folio` stays that, whatever it links to); nil
    /// when there is none.
    static func invokedAs(_ argument: String) -> String? {
        guard !argument.isEmpty else { return nil }
        guard argument.contains("/") else { return "folio" }
        // `.` and `..` taken out by their names; links left as they are.
        return URL(fileURLWithPath: argument, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/")).standardized.path
    }

    static let name = "git-setup"
    static let summary = "install Folio as git's merge driver for *.md"
    static let about = """
        Makes git merge Markdown files with Folio's document merge: adds the driver
        [merge "folio"] to REPO's .git/config (default: the repository here), with
          driver = FOLIO merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B
        and the lines '*.md merge=folio' and '*.markdown merge=folio' to its
        .gitattributes. FOLIO is folio as you ran it: `folio` when it came from your
        PATH (install it with folio install), else the path you typed, links not
        followed (a build folder's path breaks once the build is cleaned: said).
        With --global, to ~/.gitconfig and git's global attributes file instead, for
        every repository. Running it again changes nothing.
        Commit .gitattributes: every clone then merges with Folio once it has run
        folio git-setup too (git never copies .git/config to a clone).
        """
    static let global = Flag("--global", help: "set it up for every repository (~/.gitconfig and git's global attributes file)")
    static let repo = Positional("REPO", at: 0, optional: true)
    static let arguments = ArgumentSpec(flags: [global], forms: [[repo]], positionalNames: "at most one REPO")

    @MainActor static func run(_ arguments: ParsedArguments) async -> Int32 {
        let global = arguments.isSet(Self.global)
        let repository = arguments.valueIfGiven(repo) ?? FileManager.default.currentDirectoryPath
        guard let folio = invokedAs(CommandLine.arguments.first ?? "") else {
            Output.error("folio git-setup: cannot tell where the folio program is")
            return ExitCode.problems
        }
        let driver = "\(Shell.quoted(folio)) merge-file --marker-size %L --path %P -L ours -L base -L theirs %A %O %B"
        let scope = global ? ["--global"] : []
        // git as the library runs it (GitProcess): its output, nil when it fails.
        func git(_ command: [String]) -> String? {
            GitProcess.output((global ? [] : ["-C", repository]) + command).map {
                String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        if !global && git(["rev-parse", "--git-dir"]) == nil {
            Output.error("folio git-setup: \(repository) is not a git repository")
            return ExitCode.problems
        }
        for (key, value) in [("merge.folio.name", "Folio: Markdown documents merged by field and section"), ("merge.folio.driver", driver)] {
            guard git(["config"] + scope + [key, value]) != nil else {
                Output.error("folio git-setup: git config \(key) failed")
                return ExitCode.problems
            }
        }
        let attributes: RootedPath
        let shown: String
        do {
            if global {
                // Unset: git says so by failing.
                let configured = git(["config", "--global", "core.attributesFile"]) ?? ""
                let home = Syscall.environment("HOME") ?? NSHomeDirectory()
                let xdg = Syscall.environment(nonEmpty: "XDG_CONFIG_HOME") ?? home + "/.config"
                shown = configured.isEmpty ? xdg + "/git/attributes" : (configured.hasPrefix("~/") ? home + configured.dropFirst(1) : configured)
                // The user's own configuration file, named by git: reached as `cp` would reach it.
                attributes = try RootedFolder.creating(AtomicFile.parent(of: shown))[AtomicFile.name(of: shown)]
            } else {
                guard let top = git(["rev-parse", "--show-toplevel"]), !top.isEmpty else {
                    Output.error("folio git-setup: \(repository) has no working tree (a bare repository?): nowhere to put .gitattributes")
                    return ExitCode.problems
                }
                shown = top + "/.gitattributes"
                attributes = try RootedFolder(top)[".gitattributes"]
            }
            // One that is there but cannot be read is not overwritten as if empty: the read throws.
            let before = try? FileStamp.of(attributes)
            let existing = try AtomicFile.contentsIfPresent(attributes) ?? []
            let lines = String(decoding: existing, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let added = ["*.md merge=folio", "*.markdown merge=folio"].filter { !lines.contains($0) }
            if !added.isEmpty {
                // Appended to the bytes as they are (a line in another encoding stays as it was).
                let separator: [UInt8] = existing.isEmpty || existing.last == 10 ? [] : [10]
                let bytes = existing + separator + Array((added.joined(separator: "\n") + "\n").utf8)
                // Only over the file as read: an edit saved meanwhile is not lost.
                guard try AtomicFile.write(bytes, to: attributes, mode: before?.permissions, replacingOnly: { $0 == before }) else {
                    Output.error("folio git-setup: \(shown) changed while it was being set up; nothing was written there: run it again")
                    return ExitCode.problems
                }
            }
            Output.print("git merges Markdown with Folio \(global ? "in every repository" : "in \(repository)"):")
            Output.print("  merge.folio.driver = \(driver)")
            Output.print("  \(shown): " + (added.isEmpty ? "already has *.md merge=folio" : "added " + added.joined(separator: ", ")))
            if folio.contains("/.build/") {
                Output.print("note: git runs \(folio) for each merge: cleaning or moving that build breaks them; run folio install, then folio git-setup again")
            }
            if !global { Output.print("Commit .gitattributes; each clone runs folio git-setup once as well.") }
            return ExitCode.success
        } catch {
            Output.error("folio git-setup: " + FileProblem.line(error))
            return ExitCode.problems
        }
    }
}
