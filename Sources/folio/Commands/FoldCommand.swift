import Foundation
import FolioFormat
import FolioSync
import FolioSystem

/// `folio fold DIR [--state DIR] [--dry-run] [--json] [--quiet SECONDS]`.
enum FoldCommand: FolioCommand {
    static let name = "fold"
    static let summary = "merge other tools' conflict copies back into their files, once"
    static let about = """
        Folds the conflict copies Syncthing (NAME.sync-conflict-…), Dropbox and
        Nextcloud (NAME (… conflicted copy …)) left in DIR back into their files: each
        copy and its file are merged (documents field by field) against their lowest
        common ancestor in the folder's shared history (DIR/.folio, written by every
        device's folio and carried by the sync tool; else the merge base git holds),
        the file replaced only if it still holds what was read, and the copy moved to
        the trash (folio restore DIR brings it back). Copies holding the same bytes are
        one version. A copy that clashes with its file, or for which no common ancestor
        is known, stays and is reported. A copy or file changed less than SECONDS ago
        (default 2) is waited for: the sync tool may still be writing it. Every file's
        version is recorded first, so that a later copy has its base.
        In a git work tree nothing is written while git is in the middle of a merge,
        rebase, cherry-pick or revert (exit 1). This device's name, the trash and the
        lock are kept in --state DIR, else $XDG_STATE_HOME/folio/ (or
        ~/.local/state/folio/); folio watch DIR keeps the history as files change.
        --json prints one JSON document. Exit 0 when no copy is left, 1 when some are
        kept (or git is busy), 2 on bad usage or when another folio holds the state folder.
        """
    /// In seconds: a sync tool may take that long to finish writing a copy (not
    /// `watch --quiet`'s milliseconds, which are for an editor's save).
    static let quiet = Option<Duration>(
        "--quiet", unit: .seconds, range: 0...3600, fractions: true, upTo: "an hour",
        help: "wait for a copy or file changed less than this long ago", default: "2")
    static let arguments = ArgumentSpec(flags: [SharedOptions.dryRun, SharedOptions.json], options: [SharedOptions.state.info, quiet.info], positionals: 1...1, positionalNames: "one DIR", synopses: ["DIR"])

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        var options = FoldOptions()
        options.stateDirectory = try SharedOptions.stateDirectory(arguments)
        options.dryRun = arguments.isSet(SharedOptions.dryRun)
        if let quiet = try arguments.value(of: quiet) { options.quietPeriod = quiet }
        let folder: SharedFolder
        do { folder = try SharedFolder(arguments.positionals[0], options: options) } catch {
            Output.error("folio fold: \(error)")
            return ExitCode.of(error)
        }
        if let operation = folder.gitOperationInProgress() {
            Output.error("folio fold: git is in the middle of \(operation) in \(folder.root): nothing was written; run folio fold again once git is done")
            return ExitCode.problems
        }
        // Every file's version goes into the shared history first, so that a copy that
        // appears later (a fold run from cron) has its base.
        do { try folder.record() } catch {
            Output.error("folio fold: cannot record the folder's history in \(folder.root)/.folio: " + FileProblem.advice(any: error, writing: true, then: "fold again"))
            return ExitCode.of(error)
        }
        var report = folder.fold()
        // A copy still being written is waited for, a little.
        let deadline = Date().addingTimeInterval(Double(options.quietPeriod.components.seconds) + 10)
        while !report.waiting.isEmpty && Date() < deadline {
            // Cancelled only when the process ends: nothing to wait for then.
            try? await Task.sleep(for: .milliseconds(250))
            let again = folder.fold()
            report.folded += again.folded
            report.kept += again.kept
            report.waiting = again.waiting
        }
        print(report, dryRun: options.dryRun, json: arguments.isSet(SharedOptions.json), folder: arguments.positionals[0])
        return report.kept.isEmpty && report.waiting.isEmpty ? ExitCode.success : ExitCode.problems
    }

    /// Prints a fold report: a line per copy, or one JSON document (`json`).
    static func print(_ report: FoldReport, dryRun: Bool, json: Bool, folder: String) {
        if json {
            Output.printJSON(YAMLValue.mapping(object(report, dryRun: dryRun)).json())
            return
        }
        for line in lines(report, dryRun: dryRun, folder: folder) { Output.print(line) }
    }

    /// `folded COPY into FILE (base: …)`, `conflict kept FILE: … (the other version stays
    /// as COPY); compare them with folio resolve FOLDER COPY, …`.
    static func lines(_ report: FoldReport, dryRun: Bool, folder: String) -> [String] {
        (report.blocked.map { ["waiting: \($0)"] } ?? []) + report.rescued.map { "restored \($0): a version this device held, which the sync tool dropped, kept as a copy" }
            + report.folded.map { fold in
            "\(dryRun ? "would fold" : "folded") \(fold.copy) into \(fold.file)" + (fold.base.map { " (base: \($0.rawValue))" } ?? " (the same content)")
        } + report.kept.map { "conflict kept \($0.file): \($0.reason) (the other version stays as \($0.copy)); " + ConflictStatus.settling($0.copy, in: folder) }
            + report.waiting.map { "waiting \($0): changed too recently, or the sync tool is still writing it" }
    }

    /// A line per copy as `folio watch` prints them: sentences, or one JSON object each
    /// (`{"event": "folded", …}`, `{"event": "conflict kept", …}`).
    static func events(_ report: FoldReport, json: Bool, folder: String) -> [String] {
        guard json else { return lines(report, dryRun: false, folder: folder).filter { !$0.hasPrefix("waiting ") } }
        return (report.blocked.map { [YAMLValue.mapping(["event": .string("waiting"), "reason": .string($0)]).json(indent: nil)] } ?? []) + report.rescued.map { YAMLValue.mapping(["event": .string("restored"), "copy": .string($0)]).json(indent: nil) } + report.folded.map {
            YAMLValue.mapping(["event": .string("folded"), "copy": .string($0.copy), "path": .string($0.file), "base": $0.base.map { .string($0.rawValue) } ?? .null]).json(indent: nil)
        } + report.kept.map {
            YAMLValue.mapping(["event": .string("conflict kept"), "copy": .string($0.copy), "path": .string($0.file), "reason": .string($0.reason)]).json(indent: nil)
        }
    }

    /// The report as JSON values.
    static func object(_ report: FoldReport, dryRun: Bool) -> YAMLMapping {
        [
            "folded": .sequence(report.folded.map { .mapping(["copy": .string($0.copy), "file": .string($0.file), "base": $0.base.map { .string($0.rawValue) } ?? .null]) }),
            "kept": .sequence(report.kept.map { .mapping(["copy": .string($0.copy), "file": .string($0.file), "reason": .string($0.reason)]) }),
            "waiting": .sequence(report.waiting.map(YAMLValue.string)),
            "restored": .sequence(report.rescued.map(YAMLValue.string)),
            "dryRun": .bool(dryRun),
        ]
    }
}
