import FolioFormat
import FolioStore
import FolioSync
import FolioSystem

/// `folio conflicts DIR`.
enum ConflictsCommand: FolioCommand {
    static let name = "conflicts"
    static let summary = "list conflict copies left in a folder"
    static let help = """
        usage: folio conflicts DIR

        Lists the conflict copies in DIR — Folio's and Syncthing's NAME.sync-conflict-…
        and Dropbox's NAME (… conflicted copy …) — each with the file it is a version
        of. Compare the two, keep what you want in the file, and delete the copy; the
        next sync carries that to the other replica. Exits 1 when there are some.
        """
    static let arguments = ArgumentSpec(positionals: 1...1, positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async -> Int32 {
        let root = arguments.positionals[0]
        do {
            let walk = try DirectoryWalk.files(under: root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: { _ in true })
            var found = 0
            for path in walk.paths {
                if let original = ConflictCopies.originalOfAnyCopy(path) {
                    Output.print("\(path)  (a version of \(original))")
                    found += 1
                }
            }
            return found == 0 ? ExitCode.success : ExitCode.problems
        } catch {
            Output.error("folio conflicts: \(error)")
            return ExitCode.problems
        }
    }
}
