/// One subcommand.
protocol FolioCommand {
    static var name: String { get }
    static var summary: String { get }
    /// What the command does, after the usage lines its ``arguments`` make.
    static var about: String { get }
    /// What it accepts, declared once (parsing, usage lines, the option list and the
    /// allowed values come from it).
    static var arguments: ArgumentSpec { get }
    /// Runs the command; it may end early by throwing ``CommandExit`` (its error
    /// printed) or ``OptionValueError`` (bad usage).
    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32
    /// The exit status for bad usage (2, except where Folio mirrors a git command).
    static var usageStatus: Int32 { get }
}

extension FolioCommand {
    static var usageStatus: Int32 { ExitCode.usage }

    /// The help: the usage lines made from ``arguments``, then ``about``, then the
    /// option list made from ``arguments``.
    static var help: String {
        arguments.usage(name) + "\n\n" + about + (arguments.leadsWithFolder ? "\n\n" + DefaultFolder.explained : "")
            + (arguments.optionList.map { "\n\n" + $0 } ?? "")
    }
}
