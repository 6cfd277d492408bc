/// `folio completions bash|zsh|fish`: the completion script for a shell, on stdout.
enum CompletionsCommand: FolioCommand {
    static let name = "completions"
    static let summary = "print the shell completion script for bash, zsh or fish"
    static let about = """
        Prints the completion script for SHELL (bash, zsh or fish), made from the
        commands' declarations: the commands, their options, the values an option
        allows, folders where a command takes folders. folio install puts them where
        the shells look; by hand, e.g.
          folio completions bash > ~/.local/share/bash-completion/completions/folio
        """
    static let shell = Positional("SHELL", at: 0)
    static let arguments = ArgumentSpec(forms: [[shell]], positionalNames: "one SHELL (bash, zsh or fish)")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let shell = arguments.value(of: Self.shell)
        guard let script = ShellCompletions.script(for: shell, commands: FolioCLI.commands) else {
            throw OptionValueError(description: "SHELL must be one of \(ShellCompletions.shells.joined(separator: ", ")), not \(shown(shell))", showsHelp: false)
        }
        Output.write(script)
        return ExitCode.success
    }
}
