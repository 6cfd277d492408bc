import FolioFormat
import FolioSync

/// `folio conflicts DIR [--state DIR] [--json]`.
enum ConflictsCommand: FolioCommand {
    static let name = "conflicts"
    static let summary = "list conflict copies in a folder, and whether each can be folded"
    static let about = """
        Lists the conflict copies in DIR — Syncthing's NAME.sync-conflict-…, Dropbox's
        and Nextcloud's NAME (… conflicted copy …), and Folio's own from folio sync —
        each with the file it is a version of and whether folio fold can fold it back:
          r.sync-conflict-20261201-120000-ABCDEFG.md  (a version of r.md): can be folded (base: history)
          r.sync-conflict-20261201-130000-ABCDEFG.md  (a version of r.md): cannot be folded: time (20m | 25m)
        A copy that cannot be folded (both sides changed the same thing, or no earlier
        version is known to serve as the base) and Folio's own copies are real
        conflicts: settle them with folio resolve DIR COPY. Nothing is changed and no
        lock is taken; the history of versions is read from --state DIR, else the
        folder's state under $XDG_STATE_HOME/folio/ (or ~/.local/state/folio/).
        --json prints one JSON document: {"conflicts": [{"copy", "file", "foldable",
        "base" or "reason", "fromFolioSync"}]}. Exits 1 when there are copies, 0 when
        there are none.
        """
    static let dir = Positional("DIR", at: 0)
    static let arguments = ArgumentSpec(flags: [SharedOptions.json], options: [SharedOptions.state.info], forms: [[dir]], positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let state = try SharedOptions.stateDirectory(arguments)
        let statuses: [ConflictStatus]
        do { statuses = try ConflictStatus.all(in: arguments.value(of: dir), state: state) } catch {
            Output.error("folio conflicts: \(error)")
            return ExitCode.of(error)
        }
        if arguments.isSet(SharedOptions.json) {
            Output.printJSON(YAMLValue.mapping(["conflicts": .sequence(statuses.map(\.json))]).json())
        } else {
            for status in statuses { Output.print(status.line) }
        }
        return statuses.isEmpty ? ExitCode.success : ExitCode.problems
    }
}
