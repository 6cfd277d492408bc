import Foundation
import Testing
@testable import folio

/// The command reference in docs/cli.md and the README's command table, against what
/// the built `folio` prints: the commands `folio --help` lists, in its order, and for
/// each the usage lines of `folio COMMAND --help` (unwrapped), which must be the
/// synopses the documents write. Nothing here is read from the declarations, so an
/// edit to either side alone makes it fail.
@Suite struct CommandReferenceTests {
    /// The documents that hold a command table, and the section it is in.
    static let documents = ["docs/cli.md", "README.md"]

    /// The commands `folio --help` lists, in its order.
    static func listedCommands() throws -> [String] {
        let help = try FolioBinary.run(["--help"])
        try #require(help.status == 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The usage lines at the top of a command's help, each form on one line: a line
    /// that starts `usage: folio` or `       folio` starts a form, a more indented one
    /// continues it.
    static func synopses(inHelp help: String) -> [String] {
        var forms: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).prefix(while: { !$0.isEmpty }) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("usage: folio ") {
                forms.append(String(text.dropFirst("usage: ".count)))
            } else if text.hasPrefix("folio ") || forms.isEmpty {
                forms.append(text)
            } else {
                forms[forms.count - 1] += " " + text
            }
        }
        return forms
    }

    /// The synopses a Markdown document's `## Commands` section writes, by command in
    /// the order they come: every table cell that starts with `` `folio ``, one per
    /// `` `…` `` separated by `<br>` (`\|` in a cell is a `|` of the synopsis).
    static func synopses(inMarkdown text: String) -> [(command: String, synopses: [String])] {
        var section: [Substring] = []
        var inCommands = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inCommands = line == "## Commands" } else if inCommands { section.append(line) }
        }
        var result: [(command: String, synopses: [String])] = []
        let bar = "\u{1}"
        for row in section where row.hasPrefix("|") {
            let cells = row.replacingOccurrences(of: "\\|", with: bar).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for cell in cells where cell.hasPrefix("`folio ") {
                let forms = cell.components(separatedBy: "<br>").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")).replacingOccurrences(of: bar, with: "|")
                }
                let command = forms[0].split(separator: " ").dropFirst().first.map(String.init) ?? ""
                // A command written on two rows (watch DIR, watch A B) is one entry.
                if result.last?.command == command { result[result.count - 1].synopses += forms } else { result.append((command, forms)) }
            }
        }
        return result
    }

    @Test(arguments: documents)
    func theDocumentsSynopsesAreTheUsageLinesOfHelp(document: String) async throws {
        let text = try String(contentsOf: FolioBinary.packageRoot.appendingPathComponent(document), encoding: .utf8)
        let written = Self.synopses(inMarkdown: text)
        let commands = try Self.listedCommands()
        try #require(!commands.isEmpty, "folio --help lists no commands")
        #expect(written.map(\.command) == commands, "\(document) lists the commands \(written.map(\.command)); folio --help lists \(commands)")
        for command in commands {
            let help = try await FolioBinary.run([command, "--help"])
            let printed = Self.synopses(inHelp: help.stdout)
            let documented = written.first { $0.command == command }?.synopses ?? []
            #expect(documented == printed, """
                \(document) writes folio \(command)'s synopsis as
                  \(documented.joined(separator: "\n  "))
                but folio \(command) --help prints
                  \(printed.joined(separator: "\n  "))
                The cell to write: \(Self.cell(printed))
                """)
        }
    }

    /// Each duration option's default and limit, as `folio COMMAND --help` prints them
    /// (`--quiet DURATION … up to an hour; default 2s`), are what docs/cli.md's row
    /// for that command says of the option: its default as written (`` `2s` ``), and its
    /// limit (`at most an hour`), so that the units cannot drift apart again.
    @Test func eachDurationsDefaultAndLimitInHelpAreTheDocs() async throws {
        let text = try String(contentsOf: FolioBinary.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        var checked = 0
        for command in try Self.listedCommands() {
            let help = try await FolioBinary.run([command, "--help"]).stdout
            let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `folio \(command) ") }.joined(separator: "\n")
            for option in Self.durationOptions(inHelp: help) {
                checked += 1
                if let value = option.default {
                    #expect(rows.contains("`\(option.name)`") && rows.contains("`\(value)`"),
                            "folio \(command) --help says \(option.name) defaults to \(value); docs/cli.md's row does not say `\(value)`")
                }
                if let limit = option.limit {
                    #expect(rows.contains("at most \(limit)"), "folio \(command) --help says \(option.name) is up to \(limit); docs/cli.md's row does not say 'at most \(limit)'")
                }
            }
        }
        // watch's --poll, --quiet, --commit-after, --fetch-every, --retry-every; fold's --quiet.
        #expect(checked == 6, "\(checked) duration options found in the help")
    }

    /// The duration options of a help's option list: name, limit (`an hour`) and default.
    static func durationOptions(inHelp help: String) -> [(name: String, limit: String?, default: String?)] {
        // Entries unwrapped: a line starting with two spaces and `--` starts one.
        var entries: [String] = []
        for line in help.split(separator: "\n").drop(while: { $0 != "options:" }).dropFirst() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  --") { entries.append(text) } else if !entries.isEmpty { entries[entries.count - 1] += " " + text }
        }
        return entries.compactMap { entry in
            let words = entry.split(separator: " ")
            guard words.count > 1, words[1] == "DURATION" else { return nil }
            let limit = entry.range(of: "up to ").map { String(entry[$0.upperBound...].prefix { $0 != ";" }) }
            let value = entry.range(of: "; default ").map { String(entry[$0.upperBound...].prefix { $0 != " " && $0 != ";" }) }
            return (String(words[0]), limit, value)
        }
    }

    /// The Markdown table cell for a command's synopses.
    static func cell(_ synopses: [String]) -> String {
        synopses.map { "`" + $0.replacingOccurrences(of: "|", with: "\\|") + "`" }.joined(separator: "<br>")
    }

    /// The parsing above, on text with a known answer: a wrapped usage, a second form,
    /// an escaped `|`, a command on two rows, and a table outside `## Commands`.
    @Test func theParsersReadWhatTheyShould() {
        let help = """
            usage: folio watch DIR [--json] [--poll SECONDS]
                               [--state DIR]
                   folio watch A B [--json]

            Loads DIR.
            """
        #expect(Self.synopses(inHelp: help) == ["folio watch DIR [--json] [--poll SECONDS] [--state DIR]", "folio watch A B [--json]"])
        let markdown = """
            ## Other
            | `folio nope` | x |
            ## Commands
            | `folio sync A B [--conflict copy\\|markers]` | x \\| y |
            | `watch` | `folio watch DIR`<br>`folio watch A B` | x |
            | `folio restore DIR` | x |
            | `folio restore A B` | x |
            """
        let read = Self.synopses(inMarkdown: markdown)
        #expect(read.map(\.command) == ["sync", "watch", "restore"])
        #expect(read.map(\.synopses) == [["folio sync A B [--conflict copy|markers]"], ["folio watch DIR", "folio watch A B"], ["folio restore DIR", "folio restore A B"]])
    }

    /// The README's command table starts each row with the cells the declarations make
    /// (the command, its synopses); with `FOLIO_PRINT_REFERENCE=1` the rows are printed,
    /// for pasting into the tables of docs/cli.md and the README.
    @Test func theReadmeRowsAreTheOnesTheDeclarationsMake() async throws {
        let readme = try String(contentsOf: FolioBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let print = ProcessInfo.processInfo.environment["FOLIO_PRINT_REFERENCE"] != nil
        for command in FolioCLI.commands {
            let cells = "| `\(command.name)` | \(Self.cell(command.arguments.synopses(command.name))) |"
            if print { Swift.print(cells + " \(command.summary) |") }
            #expect(readme.contains("\n" + cells + " "), "README.md has no row starting \(cells)")
        }
    }
}
