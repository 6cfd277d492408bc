import FolioFolder
import Foundation
import FolioFormat
import FolioMerge
import FolioSync

/// `folio sync A B`.
enum SyncCommand: FolioCommand {
    static let name = "sync"
    static let summary = "keep two replicas in step, merging concurrent edits"
    static let about = """
        Brings the folders A and B (a Syncthing or Dropbox folder, a USB stick, a second
        clone) in step. What changed on one side since the last sync is copied to the
        other; what changed on both is merged (Markdown documents field by field and
        section by section, other text line by line); a deletion on one side removes
        the file on the other only if it was not edited there (deleted files go to the
        trash in the state folder). A real conflict keeps the newer version in place and
        saves the other beside it as NAME.sync-conflict-YYYYMMDD-HHMMSS-REPLICA.EXT
        (--conflict markers writes git-style markers instead).
        The state (the last agreed state, merge bases, trash) is kept outside both
        replicas, in $XDG_STATE_HOME/folio/ or ~/.local/state/folio/, or --state DIR.
        A replica that is missing, or suddenly empty while it held files, is refused.
        --json prints one JSON document for the whole sync (folio watch A B --json
        prints one object per event instead).
        Exit 0 when the replicas agree, 1 when conflicts remain, 2 on bad usage or a
        refused replica, 3 when the state could not be written (a full disk, permissions).
        """
    static let allowMassDelete = Flag("--allow-mass-delete", help: "go ahead though a replica is suddenly empty, replaced, or would lose more than half its files")
    static let conflict = Option<ConflictChoice>("--conflict", help: "save a real conflict as a copy beside the file, or mark it in the file", default: "copy")
    static let a = Positional("A", at: 0)
    static let b = Positional("B", at: 1)
    static let arguments = ArgumentSpec(
        flags: [SharedOptions.dryRun, SharedOptions.json, allowMassDelete], options: [SharedOptions.state.info, conflict.info], forms: [[a, b]],
        positionalNames: "A and B")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        var options = SyncOptions()
        options.stateDirectory = try SharedOptions.stateDirectory(arguments)
        options.dryRun = arguments.isSet(SharedOptions.dryRun)
        options.allowMassDelete = arguments.isSet(allowMassDelete)
        options.conflicts = (try arguments.value(of: conflict) ?? .copy).policy
        // On a terminal, a line that counts the steps of a long sync (rewritten in place).
        if isatty(2) == 1 {
            options.progress = { done, total in
                FileHandle.standardError.write(Data("\rsyncing: \(done) of \(total) changes\(done == total ? "\n" : "")".utf8))
            }
        }
        let report: SyncReport
        do {
            report = try SyncEngine(arguments.value(of: a), arguments.value(of: b), options: options).run()
        } catch {
            Output.error("folio sync: \(error)")
            return ExitCode.of(error)
        }
        if arguments.isSet(SharedOptions.json) {
            Output.printJSON(report.json(dryRun: options.dryRun))
        } else {
            report.printText(dryRun: options.dryRun, roots: PerReplica(a: arguments.value(of: a), b: arguments.value(of: b)))
        }
        if report.couldNotWriteState { return ExitCode.ioFailure }
        return report.foundProblems ? ExitCode.problems : ExitCode.success
    }
}
