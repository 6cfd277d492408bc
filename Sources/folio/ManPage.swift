/// folio(1), made from the commands' declarations and help texts: the same words as
/// `folio COMMAND --help`, in roff.
enum ManPage {
    static func text(commands: [any FolioCommand.Type], version: String) -> String {
        var page = [
            ".TH FOLIO 1 \"\" \"folio \(version)\" \"User Commands\"",
            ".SH NAME",
            "folio \\- plain-text records (recipes, todos, workouts, quotes) kept as Markdown files with YAML front matter",
            ".SH SYNOPSIS",
            ".B folio",
            ".I command",
            "[\\fIoptions\\fR]",
            ".br",
            ".B folio --version",
            ".SH DESCRIPTION",
            "Each command below says what it takes and does, as",
            ".B folio",
            ".I command",
            ".B --help",
            "prints it. Exit status: 0 success; 1 the command ran and found problems; 2 bad usage; 3 the disk or the remote refused.",
            ".SH COMMANDS",
        ]
        for command in commands {
            page.append(".SS \(escaped(command.name)) \\(em \(escaped(command.summary))")
            page.append(".nf")
            page += command.arguments.usage(command.name).split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            page.append(".fi")
            page.append(".PP")
            page += paragraphs(command.about)
            let spec = command.arguments
            for flag in spec.flags {
                page += [".TP", ".B \(escaped(flag.name))", escaped(flag.help)]
            }
            for option in spec.options {
                page += [".TP", ".B \(escaped(option.name)) \\fI\(escaped(option.choices?.joined(separator: "|") ?? option.valueName))\\fR",
                         escaped(option.help + (option.defaultText.map { " (default: \($0))" } ?? ""))]
            }
        }
        page += [".SH SEE ALSO", "git(1); the guides in the docs/ folder of Folio's source: cli.md, format.md, git-sync.md, shared-folders.md"]
        return page.joined(separator: "\n") + "\n"
    }

    /// The help's text as roff: its lines kept (`.nf` blocks where they are indented, as
    /// examples are), a blank line a new paragraph.
    private static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indented = line.hasPrefix("  ")
            if indented != literal {
                lines.append(indented ? ".nf" : ".fi")
                literal = indented
            }
            lines.append(line.isEmpty ? ".PP" : escaped(line))
        }
        if literal { lines.append(".fi") }
        return lines
    }

    /// `text` safe in roff: backslashes doubled, a leading `.` or `'` guarded, `-` as a hyphen-minus.
    static func escaped(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
