import FolioFolder
import FolioFormat
import FolioShared
import FolioSync
import FolioSystem
import FolioVersions
import Foundation

/// `folio fold DIR [--state DIR] [--dry-run] [--json] [--quiet DURATION]`.
enum FoldCommand: FolioCommand {
    static let name = "fold"
    static let summary = "merge other tools' conflict copies back into their files, once"
    static let about = """
        Folds the conflict copies Syncthing (NAME.sync-conflict-…), Dropbox and
        Nextcloud (NAME (… conflicted copy …)) left in DIR back into their files: each
        copy and its file are merged (documents field by field) against their lowest
        common ancestor in the folder's history (this device's, in its state folder,
        and the other devices' logs in DIR/.folio, carried by the sync tool; else the
        merge base git holds),
        the file replaced only if it still holds what was read, and the copy moved to
        the trash (folio restore DIR brings it back). Copies holding the same bytes are
        one version: the others are set aside for the one folded (set aside COPY: OTHER
        holds the same content). A copy that clashes with its file, or for which no
        common ancestor is known, stays and is reported; one whose write failed (a full
        disk) stays until folded again. A copy or file changed less than --quiet
        ago (default 2s) is waited for, up to \(spoken(waitBeyondQuiet)) more, said once on stderr: the sync tool
        may still be writing it. Every file's version is recorded first, so that a
        later copy has its base.
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
        "--quiet", range: 0...3600, upTo: "an hour",
        help: "wait for a copy or file changed less than this long ago", default: "2s")
    static let dir = Positional("DIR", at: 0)
    static let arguments = ArgumentSpec(flags: [SharedOptions.dryRun, SharedOptions.json], options: [SharedOptions.state.info, quiet.info], forms: [[dir]], positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        var options = FoldOptions()
        options.stateDirectory = try SharedOptions.stateDirectory(arguments)
        options.dryRun = arguments.isSet(SharedOptions.dryRun)
        if let quiet = try arguments.value(of: quiet) { options.quietPeriod = quiet }
        let folder: SharedFolder
        do { folder = try SharedFolder(arguments.value(of: dir), options: options) } catch {
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
            Output.error("folio fold: cannot record the folder's history in \(folder.state)/history: " + FileProblem.advice(any: error, writing: true, then: "fold again"))
            return ExitCode.of(error)
        }
        var report = folder.fold()
        if !report.waiting.isEmpty {
            // A copy the sync tool wrote just now (or whose file it did): waited for, said
            // once, up to a bound past the quiet period for a tool still writing it.
            let bound = options.quietPeriod + waitBeyondQuiet
            Output.error("folio fold: " + waitingLine(report.waiting, bound: bound, quiet: options.quietPeriod))
            report = await foldingAgain(folder, after: report, until: .now + bound)
        }
        print(report, dryRun: options.dryRun, json: arguments.isSet(SharedOptions.json), folder: arguments.value(of: dir))
        return report.kept.isEmpty && report.waiting.isEmpty && report.blocked == nil ? ExitCode.success : ExitCode.problems
    }

    /// How long past its quiet period a copy still changing is waited for: a sync tool
    /// may take that long to finish writing it.
    static let waitBeyondQuiet: Duration = .seconds(10)

    /// `waiting up to 12s for COPY and its file to be left alone for 2s: …`, said once
    /// before the wait.
    static func waitingLine(_ copies: [String], bound: Duration, quiet: Duration) -> String {
        let what = copies.count == 1 ? "\(copies[0]) and its file" : "\(copies.count) conflict copies and their files"
        return "waiting up to \(spoken(bound)) for \(what) to be left alone for \(spoken(quiet)): the sync tool may still be writing them"
    }

    /// A duration as the command line writes them: `12s`, `500ms`, `2.5s`.
    static func spoken(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return milliseconds < 1000 ? "\(milliseconds)ms" : "\(Double(milliseconds) / 1000)s"
    }

    /// Folds again once the copies `first` waits for (and their files) have been left
    /// alone, until none waits or `deadline` passes. Returns the last pass's report (each
    /// pass looks at every copy, so its kept and waiting are what is left) with what every
    /// pass folded and restored.
    @MainActor static func foldingAgain(_ folder: SharedFolder, after first: FoldReport, until deadline: ContinuousClock.Instant) async -> FoldReport {
        var report = first
        while !report.waiting.isEmpty && ContinuousClock.now < deadline {
            let watched = report.waiting + report.waiting.compactMap(folder.copyNames.original(of:))
            // At least a quarter second: a copy left alone that still waits (for a sync
            // tool's temporary file, or for another device's history) is not looked at in a
            // busy loop. The last look is at the bound.
            let wait = max(folder.untilQuiet(watched, for: folder.options.quietPeriod, all: true), .milliseconds(250))
            // Cancelled only when the process ends: nothing to wait for then.
            try? await Task.sleep(for: min(wait, deadline - ContinuousClock.now))
            var again = folder.fold()
            again.folded = report.folded + again.folded
            again.rescued = report.rescued + again.rescued
            report = again
        }
        return report
    }

    /// Prints a fold report: a line per copy, or one JSON document (`json`).
    static func print(_ report: FoldReport, dryRun: Bool, json: Bool, folder: String) {
        if json {
            Output.printJSON(YAMLValue.mapping(object(report, dryRun: dryRun)).json())
            return
        }
        for line in lines(report, dryRun: dryRun, folder: folder) { Output.print(line) }
    }

    /// `folded COPY into FILE (base: …)`, `set aside COPY: OTHER holds the same content`,
    /// `conflict kept FILE: … (the other version stays as COPY); compare them with folio
    /// resolve FOLDER COPY, …`, `cannot fold COPY into FILE yet: …` (with `retryingEvery`,
    /// as `folio watch` says it, which tries again by itself that often).
    static func lines(_ report: FoldReport, dryRun: Bool, folder: String, retryingEvery retry: Duration? = nil) -> [String] {
        (report.blocked.map { ["waiting: \($0)"] } ?? []) + report.rescued.map { "restored \($0): a version this device held, which the sync tool dropped, kept as a copy" }
            + report.folded.map { line($0, dryRun: dryRun) } + report.kept.map { line($0, folder: folder, retryingEvery: retry) }
            + report.waiting.map { "waiting \($0): changed too recently, or the sync tool is still writing it" }
    }

    /// `folded COPY into FILE (base: history)`; a copy set aside because another copy
    /// holds its bytes names that copy (the file may hold them only because it was folded).
    static func line(_ fold: FoldReport.Folded, dryRun: Bool) -> String {
        if let twin = fold.sameAs { return "\(dryRun ? "would set aside" : "set aside") \(fold.copy): \(twin) holds the same content" }
        return "\(dryRun ? "would fold" : "folded") \(fold.copy) into \(fold.file)" + (fold.base.map { " (base: \($0.rawValue))" } ?? " (the same content)")
    }

    /// A copy that stays: a real conflict names the command that settles it; one kept
    /// only because a write failed (a full disk) is no conflict, and folds once the write
    /// can succeed.
    static func line(_ kept: FoldReport.Kept, folder: String, retryingEvery retry: Duration?) -> String {
        guard kept.writeFailed else {
            return "conflict kept \(kept.file): \(kept.reason) (the other version stays as \(kept.copy)); " + ConflictStatus.settling(kept.copy, in: folder)
        }
        return "cannot fold \(kept.copy) into \(kept.file) yet: \(kept.reason)" + (retry.map { "; folio watch tries again every \(spoken($0))" } ?? "")
    }

    /// A line per copy as `folio watch` prints them: sentences, or one JSON object each
    /// (`{"event": "folded", …}`, `{"event": "conflict kept", …}`).
    static func events(_ report: FoldReport, json: Bool, folder: String, retryingEvery retry: Duration) -> [String] {
        guard json else { return lines(report, dryRun: false, folder: folder, retryingEvery: retry).filter { !$0.hasPrefix("waiting ") } }
        return (report.blocked.map { [YAMLValue.mapping(["event": .string("waiting"), "reason": .string($0)]).json(indent: nil)] } ?? []) + report.rescued.map { YAMLValue.mapping(["event": .string("restored"), "copy": .string($0)]).json(indent: nil) } + report.folded.map {
            YAMLValue.mapping(YAMLMapping([.init(key: "event", value: .string("folded"))] + fields($0, file: "path").entries)).json(indent: nil)
        } + report.kept.map {
            YAMLValue.mapping(YAMLMapping([.init(key: "event", value: .string("conflict kept"))] + fields($0, file: "path").entries)).json(indent: nil)
        }
    }

    /// The report as JSON values.
    static func object(_ report: FoldReport, dryRun: Bool) -> YAMLMapping {
        [
            "folded": .sequence(report.folded.map { .mapping(fields($0, file: "file")) }),
            "kept": .sequence(report.kept.map { .mapping(fields($0, file: "file")) }),
            "waiting": .sequence(report.waiting.map(YAMLValue.string)),
            "restored": .sequence(report.rescued.map(YAMLValue.string)),
            "dryRun": .bool(dryRun),
        ]
    }

    /// A folded copy as JSON: copy, the file (under the key `file`: `path` in watch's
    /// events), base, and sameAs (the copy holding the same bytes it was set aside for).
    static func fields(_ fold: FoldReport.Folded, file: String) -> YAMLMapping {
        ["copy": .string(fold.copy), file: .string(fold.file), "base": fold.base.map { .string($0.rawValue) } ?? .null, "sameAs": fold.sameAs.map(YAMLValue.string) ?? .null]
    }

    /// A kept copy as JSON: copy, the file (under the key `file`), reason, and
    /// writeFailed (kept only because a write failed: it folds once the write can succeed).
    static func fields(_ kept: FoldReport.Kept, file: String) -> YAMLMapping {
        ["copy": .string(kept.copy), file: .string(kept.file), "reason": .string(kept.reason), "writeFailed": .bool(kept.writeFailed)]
    }
}
