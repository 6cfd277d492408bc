/// The options several commands share, each declared once: the state folder (seven
/// commands), `--json` and `--dry-run`. A command lists them in its ``ArgumentSpec``
/// and reads them through these declarations, so the name, value name and help
/// cannot differ from one command to the next.
enum SharedOptions {
    /// `--state DIR`: where the folder's (or pair's) state is kept.
    static let state = Option<String>(
        "--state", "DIR", help: "the state folder (history, trash, lock)", default: "the folder's own under $XDG_STATE_HOME/folio/ or ~/.local/state/folio/")
    /// `--json`: one JSON document (or object per line) instead of lines of text.
    static let json = Flag("--json", help: "print JSON instead of lines of text")
    /// `--dry-run`: say what would be done, change nothing.
    static let dryRun = Flag("--dry-run", help: "print what would be done; change nothing")

    /// The state folder `arguments` name, if any.
    static func stateDirectory(_ arguments: ParsedArguments) throws(OptionValueError) -> String? {
        try arguments.value(of: state)
    }
}
