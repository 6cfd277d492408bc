import FolioSystem
import FolioVersions

/// Folders: created where the other side made one, removed where the other side
/// removed one (only when empty: a folder's files are dealt with one by one).
extension Applier {
    /// Carries out a step for a folder's entry.
    mutating func applyToFolder(_ step: SyncStep) {
        switch step {
        case .agree(let path):
            record(path, hash: .folder, stampA: .folder, stampB: .folder)
        case .copy(let path, let source), .restore(let path, let source):
            // A folder made for the files copied into it is no news: only an empty one is reported.
            // A probe: a folder that cannot be looked at is reported as made, at worst news it did not need.
            if (try? FileStamp.of(full(source.other, path)))?.isDirectory == true {
                return record(path, hash: .folder, stampA: .folder, stampB: .folder)
            }
            report.record(.copied(ReplicaPath(source.other, path)))
            guard !engine.options.dryRun, insideRoot(source.other, path) else { return }
            do {
                try full(source.other, path).makeDirectories()
                record(path, hash: .folder, stampA: .folder, stampB: .folder)
            } catch {
                report.record(skipped: source.other, path, "cannot create the folder: " + FileProblem.advice(any: error, writing: true))
            }
        case .delete(let path, let replica):
            folderRemovals.append((path, replica))
        case .forget(let path):
            setEntry(nil, at: path)
        case .merge, .move, .moveByID:
            // A folder has no content to merge and is never taken for a rename.
            break
        }
    }

    /// Removes the folders the other side removed, deepest first, once their files have
    /// gone to the trash. A folder that still holds something (a file created there
    /// meanwhile, or one Folio does not sync) is kept, and said so.
    mutating func removeFolders() {
        for (path, replica) in folderRemovals.sorted(by: { $0.path.key.utf8.count > $1.path.key.utf8.count }) {
            guard !engine.options.dryRun else {
                report.record(.deleted(ReplicaPath(replica, path)))
                continue
            }
            guard insideRoot(replica, path) else { continue }
            do {
                try full(replica, path).removeDirectory()
                report.record(.deleted(ReplicaPath(replica, path)))
                setEntry(nil, at: path)
            } catch where error.code == Syscall.noSuchFile {
                setEntry(nil, at: path)
            } catch {
                report.record(skipped: replica, path, error.code == Syscall.notEmpty
                    ? "the folder was removed on the other side but still holds files here (new ones, or ones Folio does not sync): kept"
                    : "cannot remove the folder: " + FileProblem.advice(error, writing: true))
            }
        }
        folderRemovals.removeAll()
    }
}
