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
            DemoCommand.self, CheckCommand.self, ListCommand.self, QueryCommand.self, AddCommand.self, DoneCommand.self,
            RemoveCommand.self, RandomCommand.self, ImportQuotesCommand.self, WatchCommand.self, MergeFileCommand.self, GitSetupCommand.self, GitSyncCommand.self, SyncCommand.self, RestoreCommand.self, ConflictsCommand.self, ResolveCommand.self, FoldCommand.self, YAMLCommand.self,
        ]
    }

    static let usage = """
        usage: folio <command> [options]

        commands:
        \(commands.map { "  " + $0.name.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run 'folio <command> --help' for a command's options.
        """

    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            Output.error(usage)
            return ExitCode.usage
        }
        if name == "--help" || name == "-h" || name == "help" {
            Output.print(usage)
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Output.error("folio: '\(name)' is not a folio command\n\n\(usage)")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if ParsedArguments.askForHelp(rest, spec: command.arguments) {
            Output.print(command.help)
            return ExitCode.success
        }
        let parsed: ParsedArguments
        do { parsed = try ParsedArguments(rest, spec: command.arguments) } catch {
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

/// A name as printed in text: every control character written out (see ``TextEscaping``).
func shown(_ name: String) -> String { TextEscaping.name(name) }
