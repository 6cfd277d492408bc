import FolioFolder
import FolioSystem
import FolioVersions
/// Other tools' conflict copies, folded back into the files they copy.
extension Applier {
    /// Folds other tools' conflict copies (`copies`, each with its original, on one
    /// replica) back into their files: merged one after another against the archived
    /// base, each into the result of the last, and, when a merge is clean, that copy
    /// counted in. The original gets one replacement with all of them
    /// (``commitReplacements()``); the copies go to the trash after it (``finishFolds()``).
    /// A copy that conflicts stays, and is synced like any file. A copy a killed sync had
    /// already merged (the original holds that merge, the copy is as it was) goes straight
    /// to the trash.
    mutating func fold(_ copies: [SyncPath], into original: SyncPath, on replica: Replica) {
        guard let file = scanned(replica).files[original] else { return }
        var pending = copies
        let carried = pendingFolds.count
        for copy in copies where !engine.options.dryRun {
            guard let copyFile = scanned(replica).files[copy],
                  let begun = unfinishedFolds.entries.first(where: { $0.replica == replica && $0.copy == copy }),
                  begun.mergedHash == file.hash, begun.copyHash == copyFile.hash
            else { continue }
            pendingFolds.append(begun)
            pending.removeAll { $0 == copy }
        }
        guard !pending.isEmpty, var ours = read(replica, original) else { return }
        let now = engine.now
        if !engine.options.dryRun { recordVersion(ours, of: original, time: now) }
        var merged: [(copy: SyncPath, hash: SHA256.Digest)] = []
        for copy in pending {
            guard let theirs = read(replica, copy) else { continue }
            let theirsHash = SHA256.hash(theirs)
            if !engine.options.dryRun { recordVersion(theirs, of: copy, time: now) }
            // Each copy against the base chosen for it and the file as merged so far.
            let base = history.flatMap {
                BaseChoice.base(for: engine.copyNames.rootOriginal(of: copy.relative) ?? original.relative, file: ours, copy: theirs, history: $0, root: engine.folder(replica), useGit: true)
            }
            switch ConflictFold.fold(path: original.relative, base: base?.bytes, file: ours, copy: theirs) {
            case .identical: break
            case .merged(let bytes): ours = bytes
            case .conflict(let clash):
                report.record(.keptCopy(ReplicaPath(replica, copy), reason: clash))
                continue
            case .noBase:
                report.record(.keptCopy(ReplicaPath(replica, copy), reason: "no earlier version of \(original.key) is known to serve as the base"))
                continue
            case .notText:
                report.record(.keptCopy(ReplicaPath(replica, copy), reason: "not a text file"))
                continue
            }
            merged.append((copy, theirsHash))
        }
        if engine.options.dryRun {
            for (copy, _) in merged { report.record(.folded(copy: copy)) }
            return
        }
        guard !merged.isEmpty else { return }
        let mergedHash = SHA256.hash(ours)
        if mergedHash != file.hash {
            guard writeReplacing(ours, original, in: replica, expected: file.stamp, executable: file.stamp.isExecutable) != nil else { return }
            recordVersion(ours, of: original, time: now)
        }
        // The copies a killed sync had merged are in this merge too: its hash is theirs now.
        for index in carried..<pendingFolds.count { pendingFolds[index].mergedHash = mergedHash }
        for (copy, hash) in merged {
            pendingFolds.append(.init(replica: replica, copy: copy, original: original, copyHash: hash, mergedHash: mergedHash))
        }
    }

    /// Trashes the copies whose merged files are in place (``commitReplacements()`` runs
    /// first, so a copy is never the only place its content is on disk but the trash); a
    /// copy whose original changed meanwhile stays, to be folded next time (not synced
    /// as a file of its own meanwhile: once the archive knows it, it is no longer new).
    /// Returns the copies left (by replica), for the sync to leave alone this time.
    mutating func finishFolds() -> [(copy: SyncPath, replica: Replica)] {
        defer { pendingFolds.removeAll() }
        let left = pendingFolds.filter { report.changedDuringSync.contains($0.original) }.map { ($0.copy, $0.replica) }
        for fold in pendingFolds where !report.changedDuringSync.contains(fold.original) {
            // Only once the original is seen to hold the merge.
            // A merge that cannot be read back is not seen in place: the copy stays for the next sync, which reads both again.
            guard let bytes = try? FileReading.contents(of: full(fold.replica, fold.original)), SHA256.hash(bytes) == fold.mergedHash else {
                report.record(.changedDuringSync(path: fold.original))
                continue
            }
            delete(fold.copy, in: fold.replica)
            report.forgetDeletion(of: fold.copy)
            // Reported as folded once it is in the trash (else `delete` said why not).
            // A probe: a copy still there was not trashed, and `delete` said why.
            if (try? FileStamp.of(full(fold.replica, fold.copy))) == nil { report.record(.folded(copy: fold.copy)) }
        }
        return left
    }

    /// Records `bytes` as a version of `path`, seen at `time`, in the history of versions, which the bases
    /// of later folds are chosen from (``BaseChoice``). A version the disk refused is
    /// reported, and the fold goes on: a later fold of this file may then find no base
    /// in the history and keep its copy, never merge on a wrong one.
    mutating func recordVersion(_ bytes: [UInt8], of path: SyncPath, time: Int64) {
        do { try history?.record(bytes, at: path.relative, time: time) } catch {
            report.record(stateNotWritten: "cannot keep the version of \(path.key) a fold started from in the history of versions ("
                + FileProblem.advice(any: error, writing: true) + "); a later fold of it may keep its copy")
        }
    }
}
