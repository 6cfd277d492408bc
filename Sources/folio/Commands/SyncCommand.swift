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
    static let arguments = ArgumentSpec(
        flags: [SharedOptions.dryRun, SharedOptions.json, allowMassDelete], options: [SharedOptions.state.info, conflict.info], positionals: 2...2,
        positionalNames: "A and B", synopses: ["A B"])

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
            report = try SyncEngine(arguments.positionals[0], arguments.positionals[1], options: options).run()
        } catch {
            Output.error("folio sync: \(error)")
            return ExitCode.of(error)
        }
        printReport(report, dryRun: options.dryRun, json: arguments.isSet(SharedOptions.json), roots: (arguments.positionals[0], arguments.positionals[1]))
        if report.couldNotWriteState { return ExitCode.ioFailure }
        return report.foundProblems ? ExitCode.problems : ExitCode.success
    }

    /// What a sync did as one JSON object per line, for `folio watch A B --json`:
    /// `{"event":"copied","path":…}`, and likewise deleted, moved (from, to), merged,
    /// folded (copy, path), conflict kept (copy, path, replica, reason), conflict (path,
    /// copy: null when marked in the file), changed during sync and skipped (reason).
    static func events(_ report: SyncReport) -> [String] {
        func event(_ name: String, _ fields: YAMLMapping) -> String {
            var object: YAMLMapping = ["event": .string(name)]
            for entry in fields.entries { object[entry.key] = entry.value }
            return YAMLValue.mapping(object).json(indent: nil)
        }
        var lines = report.copied.map { event("copied", ["path": .string($0)]) }
        lines += report.deleted.map { event("deleted", ["path": .string($0)]) }
        lines += report.moved.map { move in
            // Recorded as `FROM → TO`.
            let parts = move.components(separatedBy: " → ")
            return parts.count == 2 ? event("moved", ["from": .string(parts[0]), "to": .string(parts[1])]) : event("moved", ["path": .string(move)])
        }
        lines += report.folded.map { event("folded", ["copy": .string($0), "path": .string(ConflictCopies.original(of: $0) ?? $0)]) }
        lines += report.keptCopies.sorted(by: { $0.key < $1.key }).map { key, reason in
            // Keyed `REPLICA:COPY`.
            let colon = key.firstIndex(of: ":")
            let copy = colon.map { String(key[key.index(after: $0)...]) } ?? key
            return event("conflict kept", [
                "copy": .string(copy), "path": .string(ConflictCopies.original(of: copy) ?? copy),
                "replica": .string(colon.map { String(key[..<$0]) } ?? ""), "reason": .string(reason),
            ])
        }
        lines += report.merged.filter { report.conflicts[$0] == nil }.map { event("merged", ["path": .string($0)]) }
        lines += report.conflicts.sorted(by: { $0.key < $1.key }).map { path, copy in
            event("conflict", ["path": .string(path), "copy": copy.map(YAMLValue.string) ?? .null])
        }
        lines += report.changedDuringSync.map { event("changed during sync", ["path": .string($0)]) }
        lines += report.normalized.map { event("normalized", ["path": .string($0)]) }
        lines += report.heldBack.map { event("held back", ["path": .string($0)]) }
        lines += report.skipped.sorted(by: { $0.key < $1.key }).map { event("skipped", ["path": .string($0.key), "reason": .string($0.value)]) }
        return lines
    }

    /// Prints what a sync did: a line per change, or one JSON object. `roots` (A and B,
    /// as the user named them) go into the commands a conflict line suggests.
    static func printReport(_ report: SyncReport, dryRun: Bool, json: Bool, roots: (a: String, b: String)) {
        let prefix = dryRun ? "would " : ""
        if json {
            var object: YAMLMapping = [
                "copied": .sequence(report.copied.map(YAMLValue.string)), "deleted": .sequence(report.deleted.map(YAMLValue.string)),
                "merged": .sequence(report.merged.map(YAMLValue.string)), "moved": .sequence(report.moved.map(YAMLValue.string)), "folded": .sequence(report.folded.map(YAMLValue.string)),
                "keptCopies": .mapping(YAMLMapping(report.keptCopies.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })),
                "conflicts": .mapping(YAMLMapping(report.conflicts.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: $0.value.map(YAMLValue.string) ?? .null) })),
                "changedDuringSync": .sequence(report.changedDuringSync.map(YAMLValue.string)),
                "normalized": .sequence(report.normalized.map(YAMLValue.string)),
                "heldBack": .sequence(report.heldBack.map(YAMLValue.string)),
                "skipped": .mapping(YAMLMapping(report.skipped.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })),
                "files": .int(report.files), "hashed": .int(report.hashed),
            ]
            object["dryRun"] = .bool(dryRun)
            Output.printJSON(YAMLValue.mapping(object).json())
        } else {
            // One write for all of it: a first sync reports a line per file.
            var lines: [String] = report.normalized.map { "renamed \(shown($0)) to its NFC spelling (Unicode's precomposed form)" }
            lines += report.copied.map { "\(prefix)copy    \(shown($0))" }
            lines += report.deleted.map { "\(prefix)delete  \(shown($0))" }
            lines += report.moved.map { "\(prefix)move    \(shown($0))" }
            lines += report.folded.map { "folded  \(shown($0)) into \(shown(ConflictCopies.original(of: $0) ?? $0)) (its copy is in the trash)" }
            lines += report.keptCopies.sorted(by: { $0.key < $1.key }).map { copy, reason in
                let path = String(copy.dropFirst(2))
                return "conflict kept \(shown(ConflictCopies.original(of: path) ?? path)): \(reason) (the other version stays as \(shown(copy))); "
                    + ConflictStatus.settling(path, in: copy.hasPrefix("B:") ? roots.b : roots.a)
            }
            lines += report.merged.filter { report.conflicts[$0] == nil }.map { "\(prefix)merge   \(shown($0))" }
            lines += report.conflicts.sorted(by: { $0.key < $1.key }).map { path, copy in
                "conflict \(shown(path))" + (copy.flatMap { $0 }.map { ": the other version is saved as \(shown($0)); " + ConflictStatus.settling($0, in: roots.a) }
                    ?? ": marked in the file; edit the <<<<<<< … >>>>>>> blocks away, then sync again")
            }
            lines += report.changedDuringSync.map { "changed during sync, left for next time: \(shown($0))" }
            if !lines.isEmpty { Output.print(lines.joined(separator: "\n")) }
            for (path, reason) in report.skipped.sorted(by: { $0.key < $1.key }) {
                // The state's key is no file of the user's: named for what it is.
                Output.error(path == SyncReport.stateKey ? "folio's state: \(reason)" : "skipped \(shown(path)): \(reason)")
            }
            if !report.heldBack.isEmpty {
                // Never silent: a change the other replica's own rules hold back is named.
                let first = report.heldBack.prefix(5).map(shown).joined(separator: ", ")
                Output.error("held back by the other replica's .folioignore: \(report.heldBack.count) path\(report.heldBack.count == 1 ? "" : "s") (\(first)\(report.heldBack.count > 5 ? ", …" : "")); "
                    + "each replica's .folioignore is its own: add the rule to both to ignore a path on both sides, or remove it")
            }
            Output.error("\(report.files) files in step; \(report.hashed) read and hashed")
        }
    }
}
