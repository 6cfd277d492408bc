import FolioFolder
import FolioSync

extension SyncReport {
    /// What a sync did, for a person: a line per change on standard output (`would `
    /// before each with `dryRun`), then what was skipped or held back and a summary on
    /// standard error. `roots` (A and B, as the user named them) go into the commands a
    /// conflict line suggests.
    /// The last line: "in step" only when the replicas are — not after a dry run (it
    /// changed nothing), nor while a conflict, a copy not folded, a file changed during
    /// the sync or a path that could not be synced leaves them apart.
    func summary(dryRun: Bool) -> String {
        let counted = "\(files) file\(files == 1 ? "" : "s"); \(hashed) read and hashed"
        if dryRun {
            let left = conflicts.isEmpty ? "" : "; a real sync would leave \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") for you"
            return "dry run: \(counted); nothing was changed\(left)"
        }
        // What `folio sync` exits 1 for (links and devices left alone by design are not).
        guard !foundProblems else { return "not in step yet: what is above is left for you; \(counted)" }
        return "\(files) file\(files == 1 ? "" : "s") in step; \(hashed) read and hashed"
    }

    /// What a file holding conflict markers is said as, with what to do.
    static func holdsMarkers(_ shownPath: String) -> String {
        "conflict markers in \(shownPath): it holds git's conflict markers (<<<<<<< … >>>>>>>): finish the merge — keep the lines you want, delete the marker lines — then sync again"
    }

    func printText(dryRun: Bool, roots: PerReplica<String>) {
        let prefix = dryRun ? "would " : ""
        // One write for all of it: a first sync reports a line per file.
        var lines: [String] = normalizations.map { "renamed \(shown($0.description)) to its NFC spelling (Unicode's precomposed form)" }
        // Which way: from the other replica into the one named.
        lines += copies.map { "\(prefix)copy    \(shown($0.path.key))  (\($0.replica.other.rawValue) → \($0.replica.rawValue))" }
        lines += deletions.map { "\(prefix)delete  \(shown($0.path.key))" }
        lines += moves.map { "\(prefix)move    \(shown("\($0.from) → \($0.to)"))" }
        lines += folds.map { copy in
            let into = shown(copyNames.original(of: copy.key) ?? copy.key)
            return dryRun ? "would fold \(shown(copy.key)) into \(into) (its copy would go to the trash)" : "folded  \(shown(copy.key)) into \(into) (its copy is in the trash)"
        }
        lines += copiesKept.sorted(by: { $0.key < $1.key }).map { copy, reason in
            "conflict kept \(shown(copyNames.original(of: copy.path.key) ?? copy.path.key)): \(reason) (the other version stays as \(shown(copy.description))); "
                + ConflictStatus.settling(copy.path.key, in: roots[copy.replica])
        }
        lines += merges.filter { conflicts[$0] == nil }.map { "\(prefix)merge   \(shown($0.key))" }
        lines += conflicts.sorted(by: { $0.key < $1.key }).map { path, copy in
            guard !dryRun else {
                return "would keep a conflict: \(shown(path.key))" + (copy.flatMap { $0 }.map { " (the other version saved as \(shown($0.key)))" } ?? " (marked in the file)")
            }
            return "conflict \(shown(path.key))" + (copy.flatMap { $0 }.map { ": the other version is saved as \(shown($0.key)); " + ConflictStatus.settling($0.key, in: roots.a) }
                ?? ": marked in the file; edit the <<<<<<< … >>>>>>> blocks away, then sync again")
        }
        lines += changedDuringSync.map { "changed during sync, left for next time: \(shown($0.key))" }
        lines += withConflictMarkers.map { Self.holdsMarkers(shown($0.key)) }
        if !lines.isEmpty { Output.print(lines.joined(separator: "\n")) }
        // Skips in the order of their keys, the state's among them, named for what it is.
        var problems = skips.map { skip, reason in (skip.description, "skipped \(shown(skip.description)): \(reason)") }
        if let stateProblem { problems.append((Self.stateKey, "folio's state: \(stateProblem)")) }
        for (_, line) in problems.sorted(by: { $0.0 < $1.0 }) { Output.error(line) }
        if !heldBackPaths.isEmpty {
            // Never silent: a change the other replica's own rules hold back is named.
            let first = heldBackPaths.prefix(5).map { shown($0.description) }.joined(separator: ", ")
            Output.error("held back by the other replica's .folioignore: \(heldBackPaths.count) path\(heldBackPaths.count == 1 ? "" : "s") (\(first)\(heldBackPaths.count > 5 ? ", …" : "")); "
                + "each replica's .folioignore is its own: add the rule to both to ignore a path on both sides, or remove it")
        }
        Output.error(summary(dryRun: dryRun))
    }
}
