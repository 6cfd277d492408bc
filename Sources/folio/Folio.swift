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
            RemoveCommand.self, RandomCommand.self, ImportQuotesCommand.self, WatchCommand.self, MergeFileCommand.self, GitSetupCommand.self, SyncCommand.self, RestoreCommand.self, ConflictsCommand.self, ResolveCommand.self, FoldCommand.self, YAMLCommand.self,
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
        do { return try await command.run(parsed) } catch let exit as CommandExit { return exit.status } catch {
            Output.error("folio \(command.name): \(error)")
            return ExitCode.of(error)
        }
    }
}

/// Exit statuses, as git uses them.
enum ExitCode {
    static let success: Int32 = 0
    static let problems: Int32 = 1
    static let usage: Int32 = 2
    /// An I/O failure: a full disk, a permission refused.
    static let ioFailure: Int32 = 3

    /// The status an error means: a path that is not there (or not a folder), a replica
    /// or state folder refused, 2; the disk's refusal (a full disk, a permission), 3;
    /// anything else the command found, 1.
    static func of(_ error: any Error) -> Int32 {
        switch error {
        case let error as SystemError: error.isMissingPath ? usage : ioFailure
        case let error as SyncError: error.kind.isIO ? ioFailure : usage
        case let error as StoreError: error.kind == .io ? ioFailure : problems
        default: problems
        }
    }
}

/// Ends a command early with an exit status, its reason already printed.
struct CommandExit: Error {
    /// The exit status.
    var status: Int32
}

/// One subcommand.
protocol FolioCommand {
    static var name: String { get }
    static var summary: String { get }
    /// What the command does, after the usage lines its ``arguments`` make.
    static var about: String { get }
    /// What it accepts, declared once (parsing, usage lines and allowed values come from it).
    static var arguments: ArgumentSpec { get }
    /// Runs the command; it may end early by throwing ``CommandExit`` (its error printed).
    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32
    /// The exit status for bad usage (2, except where Folio mirrors a git command).
    static var usageStatus: Int32 { get }
}

extension FolioCommand {
    static var usageStatus: Int32 { ExitCode.usage }

    /// The help: the usage lines made from ``arguments``, then ``about``.
    static var help: String { arguments.usage(name) + "\n\n" + about }
}

/// Standard output and standard error.
enum Output {
    /// Prints `text` (a name in it should come through ``shown(_:)``); any control
    /// character left in it is escaped all the same.
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((TextEscaping.text(text) + "\n").utf8))
    }

    /// Prints `text` to stderr, escaped likewise.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((TextEscaping.text(text) + "\n").utf8))
    }

    /// Prints a JSON document as it is (its strings are escaped by the encoder).
    static func printJSON(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// A name as printed in text: every control character written out (see ``TextEscaping``).
func shown(_ name: String) -> String { TextEscaping.name(name) }
