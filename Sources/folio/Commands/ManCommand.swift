/// `folio man`: folio(1), the manual page, in roff on stdout.
enum ManCommand: FolioCommand {
    static let name = "man"
    static let summary = "print folio's manual page (roff), every command's help"
    static let about = """
        Prints folio(1) in roff, made from every command's help: folio install puts it
        where man looks; by hand, e.g.
          folio man > ~/.local/share/man/man1/folio.1 && man folio
        """
    static let arguments = ArgumentSpec(positionalNames: "nothing")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        Output.write(ManPage.text(commands: FolioCLI.commands, version: FolioVersion.current))
        return ExitCode.success
    }
}
