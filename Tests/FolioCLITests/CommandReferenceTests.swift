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
