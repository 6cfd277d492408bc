import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions

extension SyncEngine {
    /// Folds the conflict copies other tools left in either replica (new since the last
    /// sync) back into their files, before anything else is decided; rescans what that
    /// changed. Returns the copies folded.
    func foldConflictCopies(
        _ scans: inout ReplicaScans, archive: SyncArchive, state: RootedFolder, bases: BaseStore, history: VersionHistory, ignore: FolioIgnore
    ) throws(SyncError) -> (folded: [SyncPath], kept: [ReplicaPath: String]) {
        var folding = Applier(engine: self, state: state, bases: bases, history: history, scans: scans, archive: archive, report: SyncReport(copyNames: copyNames))
        folding.unfinishedFolds = FoldJournal.load(state)
        for replica in Replica.allCases {
            let scan = scans[replica]
            // Every copy is tried, every time: one that could not be folded is reported
            // again, and one present at the first sync is folded like any other.
            var copiesOf: [SyncPath: [SyncPath]] = [:]
            for path in scan.changed where path.isFile && archive.entries[path] == nil {
                if let original = copyNames.original(of: path.relative).map(SyncPath.init(file:)), scan.files[original] != nil {
                    copiesOf[original, default: []].append(path)
                }
            }
            for (original, copies) in copiesOf.sorted(by: { $0.key < $1.key }) { folding.fold(copies.sorted(), into: original, on: replica) }
        }
        // The merged files replace their originals before any copy goes to the trash; the
        // journal says which copies are merged in, were the sync killed in between. What a
        // killed sync journaled and this one did not look at (its file was left out, say)
        // stays in the journal while its copy is there.
        let unfinished = folding.unfinishedFolds.entries
        let unused = unfinished.filter { old in
            !folding.pendingFolds.contains { $0.replica == old.replica && $0.copy == old.copy }
                // A probe: a copy no longer there (or not to be looked at) leaves the journal.
                && (try? FileStamp.of(folder(old.replica)[old.copy.relative])) != nil
        }
        let journaled = !folding.pendingFolds.isEmpty
        if journaled && !options.dryRun {
            do { try FoldJournal(entries: folding.pendingFolds + unused).save(state) } catch {
                throw SyncError(.stateIO, "cannot save the fold journal in \(state.path): " + FileProblem.advice(any: error, writing: true) + "; nothing was changed")
            }
        }
        folding.commitReplacements()
        let foldLater = folding.finishFolds()
        if !options.dryRun && (journaled || unused.count != unfinished.count) {
            // Best effort: a journal not saved only means those copies are merged again, which loses nothing (see FoldJournal).
            if unused.isEmpty { FoldJournal.remove(state) } else { try? FoldJournal(entries: unused).save(state) }
        }
        // Anything the folding changed on disk is seen afresh.
        if journaled {
            for replica in Replica.allCases {
                scans[replica] = try ReplicaScan.scan(folder(replica), ignoring: ignore, known: Self.known(archive, replica))
            }
            for (copy, replica) in foldLater {
                let reason = "a conflict copy whose file changed during the sync: folded next time"
                scans[replica].skipped[copy.key] = reason
            }
        }
        return (folding.report.folds, folding.report.copiesKept)
    }
}
