import FolioGit
import Foundation

/// `folio git-sync DIR`: one pass keeping a git work tree in step with its remote.
enum GitSyncCommand: FolioCommand {
    static let name = "git-sync"
    static let summary = "commit, bring the remote's commits in merged by field, push"
    static let about = """
        One pass in the git work tree that holds DIR: commits what changed (never
        editors' scratch files, a file holding conflict markers, or what .gitignore
        keeps out), fetches, brings in the remote branch's commits — Markdown records
        changed on both sides merged by Folio field by field and section by section,
        everything else by git; a rebase instead of a merge where pull.rebase says so —
        and pushes; a push refused because the remote moved meanwhile fetches and
        brings in again. Needs no folio git-setup and changes no git configuration.
        A real clash (one field changed two ways) keeps the remote's version in the
        file and commits this device's beside it as FILE.sync-conflict-TIME-DEVICE.md:
        settle it with folio resolve. Folio never leaves the work tree mid-merge,
        never commits conflict markers, never force-pushes, and changes nothing while
        your own git operation (a merge, a rebase, …) is under way.
        Exit status: 0 in step; 1 something to settle (a clash, a file left out, git
        busy); 2 not a work tree with a remote branch; 3 the remote could not be
        reached or refused (the edits are committed here; the next pass pushes them).
        """
    static let dir = Positional("DIR", at: 0, optional: true)
    static let device = Option<String>("--device", "NAME", help: "the name conflict copies carry for this device (default: the host's name)")
    static let arguments = ArgumentSpec(flags: [SharedOptions.json], options: [SharedOptions.state.info, device.info], forms: [[dir]], positionalNames: "at most one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        var options = GitSyncOptions()
        options.stateDirectory = try SharedOptions.stateDirectory(arguments)
        options.deviceName = try arguments.value(of: device)
        let folder = arguments.valueIfGiven(dir) ?? FileManager.default.currentDirectoryPath
        let json = arguments.isSet(SharedOptions.json)
        let outcome = await Task.detached { () -> Result<GitSyncReport, GitSyncError> in
            Result { () throws(GitSyncError) in try GitSync(folder, options: options).run() }
        }.value
        switch outcome {
        case .failure(let error):
            Output.error("folio git-sync: \(error)")
            return exitStatus(of: error)
        case .success(let report):
            for line in report.events.map({ json ? $0.json : $0.sentence }) { json ? Output.printJSON(line) : Output.print(line) }
            if let stopped = report.stopped {
                Output.error("folio git-sync: \(stopped)")
                return exitStatus(of: stopped)
            }
            return report.needsAttention ? ExitCode.problems : ExitCode.success
        }
    }

    /// 1 for git busy, 2 for a work tree that cannot be synced, 3 for a remote that
    /// cannot be reached or refuses, and for git failing.
    static func exitStatus(of error: GitSyncError) -> Int32 {
        switch error.kind {
        case .gitBusy: ExitCode.problems
        case .notSyncable: ExitCode.usage
        case .offline, .refused, .gitFailed: ExitCode.ioFailure
        }
    }
}
