import Foundation
import Testing
@testable import folio

/// Every command, run as a user runs it: `--help` and `-h` print its help (exit 0),
/// naming every option it accepts, so that help and parsing cannot drift; an unknown
/// option and a wrong number of arguments are usage errors with the command's status
/// (2, or git's 129 for `merge-file`) and its help; `--` ends the options.
@Suite struct CommandMatrixTests {
    /// The names of every command.
    static let names: [String] = FolioCLI.commands.map { $0.name }
    /// The commands whose positionals are counted (not `query`, whose last takes the rest).
    static let countedNames: [String] = FolioCLI.commands.filter { !$0.arguments.takesMorePositionals }.map { $0.name }

    /// The command named `name`.
    static func command(_ name: String) throws -> any FolioCommand.Type {
        try #require(FolioCLI.commands.first { $0.name == name })
    }

    @Test(arguments: names)
    func helpNamesEveryOptionTheCommandTakes(name: String) async throws {
        let command = try Self.command(name)
        for flag in ["--help", "-h"] {
            let run = try await FolioBinary.run([name, flag])
            #expect(run.status == 0 && run.stdout.hasPrefix("usage: folio \(name)"), "\(name) \(flag): \(run.stderr)")
            for option in command.arguments.flagNames.union(command.arguments.optionNames) {
                #expect(run.stdout.contains(option), "folio \(name) --help does not mention \(option)")
            }
        }
    }

    @Test(arguments: names)
    func anUnknownOptionIsAUsageError(name: String) async throws {
        let command = try Self.command(name)
        let run = try await FolioBinary.run([name, "--no-such-option"])
        #expect(run.status == command.usageStatus, "\(name): \(run.status)")
        #expect(run.stderr.contains("unknown option '--no-such-option'") && run.stderr.contains("usage: folio \(name)"), "\(name): \(run.stderr)")
    }

    @Test(arguments: countedNames)
    func tooManyArgumentsIsAUsageError(name: String) async throws {
        let command = try Self.command(name)
        let extra = Array(repeating: "x", count: command.arguments.positionals.upperBound + 1)
        let run = try await FolioBinary.run([name] + extra)
        #expect(run.status == command.usageStatus, "\(name): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("expected \(command.arguments.positionalNames)"), "\(name): \(run.stderr)")
    }

    /// A value an option does not allow is refused by the parser, from the declaration,
    /// with the values it does allow.
    @Test(arguments: names)
    func aValueNotAllowedIsAUsageErrorListingTheChoices(name: String) async throws {
        let command = try Self.command(name)
        for (option, allowed) in command.arguments.choices {
            let placeholders = Array(repeating: "x", count: command.arguments.positionals.lowerBound)
            let run = try await FolioBinary.run([name] + placeholders + [option, "nonsense"])
            #expect(run.status == command.usageStatus, "\(name) \(option): \(run.status)")
            let list = allowed.dropLast().joined(separator: ", ") + " or " + allowed.last!
            #expect(run.stderr.hasPrefix("folio \(name): \(option) takes \(list), not 'nonsense'"), "\(name): \(run.stderr)")
        }
    }

    /// One-shot commands print one JSON document with --json, whatever they found.
    @Test func oneShotCommandsPrintOneJSONDocument() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a"), b = folder.appendingPathComponent("b")
        try FileManager.default.createDirectory(at: a.appendingPathComponent("quotes"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        try Data("---\ntext: Less is more.\n---\n".utf8).write(to: a.appendingPathComponent("quotes/less.md"))
        let state = folder.appendingPathComponent("state").path
        for arguments in [["list", a.path], ["query", a.path, "kind:quote"], ["random", a.path], ["conflicts", a.path, "--state", state],
                          ["fold", a.path, "--state", state], ["sync", a.path, b.path, "--state", state + "2"]] {
            let run = try await FolioBinary.run(arguments + ["--json"])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) != nil, "\(arguments[0]) --json printed: \(run.stdout)")
        }
    }

    @Test func anUnknownCommandIsAUsageError() async throws {
        let run = try await FolioBinary.run(["frobnicate"])
        #expect(run.status == 2 && run.stderr.hasPrefix("folio: 'frobnicate' is not a folio command"))
        #expect(try await FolioBinary.run([]).status == 2)
        let help = try await FolioBinary.run(["--help"])
        #expect(help.status == 0 && Self.names.allSatisfy { help.stdout.contains("  \($0) ") })
    }
}
