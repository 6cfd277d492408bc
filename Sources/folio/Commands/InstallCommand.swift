import Foundation
import FolioSystem

/// `folio install [--prefix DIR]`: this `folio` onto the PATH, with its completions and
/// manual page, in one step.
enum InstallCommand: FolioCommand {
    static let name = "install"
    static let summary = "copy this folio to ~/.local/bin, with shell completions and the manual page"
    static let about = """
        Copies the folio program that runs this command to PREFIX/bin/folio (default
        PREFIX: ~/.local), and writes beside it, made from the commands' declarations:
          PREFIX/share/bash-completion/completions/folio
          PREFIX/share/zsh/site-functions/_folio
          PREFIX/share/fish/vendor_completions.d/folio.fish
          PREFIX/share/man/man1/folio.1
        Each file is replaced whole (a copy, not a link: cleaning or moving the build
        leaves it working). From a clone of Folio, one command builds and installs:
          swift run -c release folio install
        Says when PREFIX/bin is not on your PATH, and how to add it.
        """
    static let prefix = Option<String>("--prefix", "DIR", help: "where to install: DIR/bin, DIR/share", default: "~/.local")
    static let arguments = ArgumentSpec(options: [prefix.info], positionalNames: "nothing")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let home = Syscall.environment("HOME") ?? NSHomeDirectory()
        var root = try arguments.value(of: prefix) ?? "~/.local"
        if root == "~" || root.hasPrefix("~/") { root = home + root.dropFirst(1) }
        if !root.hasPrefix("/") { root = FileManager.default.currentDirectoryPath + "/" + root }
        guard let program = Bundle.main.executablePath else {
            Output.error("folio install: cannot tell where the folio program is")
            return ExitCode.problems
        }
        let commands = FolioCLI.commands
        // Each file by its path below the prefix, written through the rooted layer (which
        // makes the folders above it).
        var files: [(path: String, bytes: [UInt8], mode: UInt32)] = []
        do {
            files.append(("bin/folio", try FileReading.contents(ofFileNamedByUser: program), 0o755))
        } catch {
            Output.error("folio install: cannot read \(shown(program)): \(error)")
            return ExitCode.ioFailure
        }
        for (path, shell) in [("share/bash-completion/completions/folio", "bash"), ("share/zsh/site-functions/_folio", "zsh"), ("share/fish/vendor_completions.d/folio.fish", "fish")] {
            files.append((path, Array((ShellCompletions.script(for: shell, commands: commands) ?? "").utf8), 0o644))
        }
        files.append(("share/man/man1/folio.1", Array(ManPage.text(commands: commands, version: FolioVersion.current).utf8), 0o644))
        let prefixFolder: RootedFolder
        do { prefixFolder = try RootedFolder.creating(root) } catch {
            Output.error("folio install: cannot make \(shown(root)): " + FileProblem.advice(error, writing: true, then: "install again"))
            return ExitCode.of(error)
        }
        for file in files {
            let target = prefixFolder[file.path]
            do { _ = try AtomicFile.write(file.bytes, to: target, mode: file.mode, replacingOnly: nil) } catch {
                Output.error("folio install: cannot write \(shown(target.path)): " + FileProblem.advice(error, writing: true, then: "install again"))
                return ExitCode.of(error)
            }
            Output.print("installed \(shown(target.path))")
        }
        let bin = prefixFolder["bin"].path
        let path = (Syscall.environment("PATH") ?? "").split(separator: ":").map(String.init)
        if !path.contains(bin) && !path.contains(bin + "/") {
            Output.print("\(shown(bin)) is not on your PATH: add it, e.g. echo 'export PATH=\"\(bin):$PATH\"' >> ~/.profile, then open a new shell")
        }
        Output.print("folio \(FolioVersion.current): run folio --help to begin")
        return ExitCode.success
    }
}
