import Foundation
import Testing
@testable import folio

/// The typed declarations read as they say: every duration with its unit, by one
/// parser (a bare number refused with the fix), a number in its range, a choice as its
/// enum's case, a required option shown and refused as such.
@Suite struct OptionDeclarationTests {
    func parsed(_ arguments: [String], _ command: any FolioCommand.Type) throws -> ParsedArguments {
        try ParsedArguments(arguments, spec: command.arguments)
    }

    @Test func everyDurationIsWrittenWithItsUnit() async throws {
        #expect(try parsed(["d", "--quiet", "1.5s"], FoldCommand.self).value(of: FoldCommand.quiet) == .milliseconds(1500))
        #expect(try parsed(["d", "--quiet", "10ms"], WatchCommand.self).value(of: WatchTiming.quiet) == .milliseconds(10))
        #expect(try parsed(["d", "--poll", "0.25s"], WatchCommand.self).value(of: WatchTiming.poll) == .milliseconds(250))
        #expect(try parsed(["d", "--commit-after", "2m"], WatchCommand.self).value(of: WatchCommand.commitAfter) == .seconds(120))
        // Each within its range.
        for (arguments, option) in [(["d", "--quiet", "61s"], WatchTiming.quiet), (["d", "--poll", "0s"], WatchTiming.poll), (["d", "--poll", "2d"], WatchTiming.poll)] {
            #expect(throws: OptionValueError.self) { try parsed(arguments, WatchCommand.self).value(of: option) }
        }
        #expect(throws: OptionValueError.self) { try parsed(["d", "--quiet", "61m"], FoldCommand.self).value(of: FoldCommand.quiet) }
        #expect(try parsed(["d"], FoldCommand.self).value(of: FoldCommand.quiet) == nil)
        // A bare number is refused with the fix (it meant milliseconds in one command, seconds in another).
        let refusal = #expect(throws: OptionValueError.self) { try parsed(["d", "--quiet", "500"], FoldCommand.self).value(of: FoldCommand.quiet) }
        #expect(refusal?.description == "--quiet needs a duration such as 500ms, 2s, 5m or 1h, up to an hour, got '500': write its unit after the number, e.g. 500ms or 500s")
    }

    /// Every duration option of every command reads through the one parser (its value
    /// named DURATION), and its default is written as it would be given.
    @Test func everyDurationOptionIsDeclaredAlike() throws {
        var durations: [String] = []
        for command in FolioCLI.commands {
            for option in command.arguments.options where option.expected?.hasPrefix("a duration") == true {
                durations.append("\(command.name) \(option.name)")
                #expect(option.valueName == "DURATION", "\(command.name) \(option.name)")
                if let value = option.defaultText {
                    let read = Duration.read(value, DurationFormat(range: 0...86_400, limitName: "a day"))
                    #expect(read != nil, "\(command.name) \(option.name)'s default \(value) is not a duration as given")
                }
            }
        }
        #expect(durations.sorted() == ["fold --quiet", "watch --commit-after", "watch --fetch-every", "watch --poll", "watch --quiet", "watch --retry-every"])
    }

    @Test func theHelpSaysEachDurationsUnit() {
        // The option list wraps its lines: read as one.
        func unwrapped(_ help: String) -> String { help.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(unwrapped(FoldCommand.help).contains("--quiet DURATION wait for a copy or file changed less than this long ago; a duration such as 500ms, 2s, 5m or 1h, up to an hour; default 2s"))
        #expect(unwrapped(WatchCommand.help).contains("--quiet DURATION how long a file must be left alone before it is read; a duration such as 500ms, 2s, 5m or 1h, up to a minute; default 50ms"))
    }

    @Test func aChoiceIsReadAsItsCase() async throws {
        #expect(try parsed(["a", "b", "--conflict", "markers"], SyncCommand.self).value(of: SyncCommand.conflict) == .markers)
        #expect(try parsed(["a", "b", "c", "--diff-algorithm=histogram"], MergeFileCommand.self).value(of: MergeFileCommand.diffAlgorithm) == .histogram)
        #expect(SyncCommand.arguments.choices == ["--conflict": ["copy", "markers"]])
    }

    @Test func aRequiredOptionIsShownAndRefusedAsRequired() async throws {
        #expect(AddCommand.arguments.usage("add").hasPrefix("usage: folio add DIR KIND --title TITLE [--date D]"))
        #expect(throws: OptionValueError.self) { try parsed(["d", "todo"], AddCommand.self).required(AddCommand.title) }
        #expect(try parsed(["d", "todo", "--title", "x", "--title", "y"], AddCommand.self).required(AddCommand.title) == "y")
        let fields = try parsed(["d", "todo", "--title", "x", "--field", "a=b=c", "--field", "n="], AddCommand.self).values(of: AddCommand.field)
        #expect(fields.map(\.key) == ["a", "n"] && fields.map(\.value) == ["b=c", ""])
    }

    /// `--state DIR` is one declaration, in every command that takes it.
    @Test func theStateOptionIsDeclaredOnce() {
        let shared = SharedOptions.state.info
        var takers: [String] = []
        for command in FolioCLI.commands {
            let name = command.name
            for option in command.arguments.options where option.name == "--state" {
                takers.append(name)
                let same = option.valueName == shared.valueName && option.help == shared.help
                #expect(same, "\(name)")
            }
        }
        #expect(takers.sorted() == ["check", "conflicts", "fold", "git-sync", "resolve", "restore", "sync", "watch"])
    }

    /// What was given is kept by declaration: another command's option of the same
    /// name (fold's `--quiet`, watch's) reads nothing.
    @Test func anOptionIsReadByItsDeclarationNotItsName() throws {
        let watch = try parsed(["d", "--quiet", "10ms"], WatchCommand.self)
        #expect(try watch.value(of: WatchTiming.quiet) == .milliseconds(10))
        #expect(try watch.value(of: FoldCommand.quiet) == nil)
        let merge = try parsed(["c", "b", "o", "-q"], MergeFileCommand.self)
        #expect(merge.isSet(MergeFileCommand.quietShort) && !merge.isSet(MergeFileCommand.quiet))
    }

    /// Each name stands for one declaration in a command, so the parser knows which one
    /// a name given is.
    @Test func everyNameIsDeclaredOncePerCommand() {
        for command in FolioCLI.commands {
            let names = command.arguments.flags.map(\.name) + command.arguments.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
        }
    }

    @Test func helpIsAnOptionNotAValueNorAnythingAfterDoubleDash() async throws {
        let folder = try FolioBinary.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("todos"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // After `--`, -h is a path like any other: no such folder, not help.
        let afterDashes = try await FolioBinary.run(["list", "--", "-h"], in: folder)
        #expect(afterDashes.status == 2 && !afterDashes.stdout.contains("usage:") && afterDashes.stderr.contains("-h"))
        // As an option's value it is the value: a todo titled -h.
        let titled = try await FolioBinary.run(["add", folder.path, "todo", "--title", "-h"])
        #expect(titled.status == 0 && titled.stdout == "todos/h.md\n", "\(titled.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("todos/h.md"), encoding: .utf8).hasPrefix("---\ntitle: -h\n"))
        let help = try await FolioBinary.run(["add", folder.path, "-h"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: folio add"))
    }
}
