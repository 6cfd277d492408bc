import Foundation
import FolioStore
import FolioSync
import FolioSystem

/// The `folio` command line: subcommands, `--help` on each, exit 0 on success,
/// 1 when the command ran and found problems, 2 on bad usage, 3 when the disk
/// refused (see ``ExitCode/of(_:)``).
enum FolioCLI {
    static var commands: [any FolioCommand.Type] {
        [
            DemoCommand.self, CheckCommand.self, ListCommand.self, QueryCommand.self, AddCommand.self, DoneCommand.self, ShowCommand.self,
            RemoveCommand.self, RandomCommand.self, ImportQuotesCommand.self, WatchCommand.self, MergeFileCommand.self, GitSetupCommand.self, GitSyncCommand.self, SyncCommand.self, RestoreCommand.self, ConflictsCommand.self, ResolveCommand.self, FoldCommand.self, YAMLCommand.self,
            InstallCommand.self, CompletionsCommand.self, ManCommand.self,
        ]
    }

    static let usage = """
        usage: folio <command> [options]

        commands:
        \(commands.map { "  " + $0.name.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run 'folio help <command>' (or 'folio <command> --help') for a command's options;
        'folio --version' for the version.
        """

    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            Output.error(usage)
            return ExitCode.usage
        }
        if name == "--version" || name == "version" {
            Output.print("folio \(FolioVersion.current)")
            return ExitCode.success
        }
        if name == "--help" || name == "-h" || name == "help" {
            // `folio help CMD`: that command's help.
            guard let asked = arguments.dropFirst().first else {
                Output.print(usage)
                return ExitCode.success
            }
            guard let command = commands.first(where: { $0.name == asked }) else {
                Output.error("folio help: \(notACommand(asked))\n\n\(usage)")
                return ExitCode.usage
            }
            Output.print(command.help)
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Output.error("folio: \(notACommand(name))\n\n\(usage)")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if ParsedArguments.askForHelp(rest, spec: command.arguments) {
            Output.print(command.help)
            return ExitCode.success
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(rest, spec: command.arguments, defaultFolder: .ofThisProcess) { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            }
        } catch {
            Output.error("folio \(command.name): \(error)\n\n\(command.help)")
            return command.usageStatus
        }
        do { return try await command.run(parsed) } catch let exit as CommandExit { return exit.status } catch let error as OptionValueError {
            Output.error("folio \(command.name): \(error)" + (error.showsHelp ? "\n\n\(command.help)" : ""))
            return command.usageStatus
        } catch {
            Output.error("folio \(command.name): \(error)")
            return ExitCode.of(error)
        }
    }
}

extension FolioCLI {
    /// `'lst' is not a folio command; did you mean 'list'?` (the suggestion: the command
    /// fewest edits away, when it is at most two edits away, or one it starts).
    static func notACommand(_ name: String) -> String {
        "'\(shown(name))' is not a folio command" + (Suggestion.closest(to: name, among: commands.map { $0.name }).map { "; did you mean '\($0)'?" } ?? "")
    }
}

/// A name as printed in text: every control character written out (see ``TextEscaping``).
func shown(_ name: String) -> String { TextEscaping.name(name) }
