import FolioSystem
import FolioVersions

extension SyncEngine {
    /// A file in one replica where the other holds a folder of the same name (`x.md`
    /// edited in A, `x.md/inner.md` made in B) can be put in place on neither side, and
    /// every sync would fail on it. The rule: the folder wins the name, and the file is
    /// renamed, in its own replica, to a conflict copy beside it
    /// (`x.sync-conflict-YYYYMMDD-HHMMSS-A.md`, a rename that never replaces anything),
    /// then synced as a new file — so both reach both sides, nothing is lost, and the
    /// clash is reported as a conflict (exit 1). Only a real clash: when the file is as
    /// the last sync left it, the other side replaced it with the folder (the file goes
    /// to the trash as any deletion); when the folder and everything in it are as the
    /// last sync left them, this side replaced the folder with the file. The scans are
    /// updated to what is on disk after the renames.
    func separateFilesFromFolders(_ scans: inout ReplicaScans, archive: SyncArchive, into report: inout SyncReport) {
        // A clash is new at a path changed on one side at least: in a hinted pass, only
        // those are looked at (a whole pass looks at every file, as it always did).
        let hinted = scans.a.isPartial || scans.b.isPartial
        let changedFiles = hinted ? Set((scans.a.changed + scans.b.changed).map { SyncPath(file: $0.relative) }).sorted() : []
        for replica in Replica.allCases {
            let scan = scans[replica]
            let other = scans[replica.other]
            // A whole pass starts from the other side's folders (few), not this side's files (many).
            let candidates = hinted ? changedFiles.filter { scan.files[$0] != nil }
                : other.files.keys.filter(\.isFolder).map { SyncPath(file: $0.relative) }.filter { scan.files[$0] != nil }.sorted()
            for path in candidates where path.isFile && other.files[SyncPath(folder: path.relative)] != nil {
                let sameNamedFolder = SyncPath(folder: path.relative)
                let fileUnchanged = archive.entries[path]?.hash == scan.files[path]!.hash
                let folderUnchanged = archive.entries[sameNamedFolder] != nil
                    && !other.files.contains { path, file in path.isInside(sameNamedFolder) && archive.entries[path]?.hash != file.hash }
                guard !fileUnchanged && !folderUnchanged else { continue }
                let copy = Applier.freeName(
                    Applier.conflictCopyName(path.relative, timestamp: Syscall.localTimestamp(), replica: replica.rawValue),
                    scans: [scans.a, scans.b], roots: Replica.allCases.map(folder))
                guard !options.dryRun else {
                    report.record(.conflict(path: path, copy: SyncPath(file: copy)))
                    continue
                }
                var moved = scan.files[path]!
                let stamp: FileStamp?
                do {
                    guard case .moved(let movedStamp) = try AtomicFile.move(folder(replica)[path.relative], to: folder(replica)[copy], expecting: moved.stamp) else {
                        // Saved since the scan (or the name taken): looked at again next sync.
                        report.record(.changedDuringSync(path: path))
                        continue
                    }
                    stamp = movedStamp
                } catch {
                    report.record(skipped: replica, path, "a file here, a folder of the same name in the other replica, "
                        + "and the file could not be renamed aside (\(error)): rename one of them")
                    continue
                }
                // Without a stamp from the move (a save landed on it), the scan's from before
                // the rename stands in: it matches no file on disk, so the copy reads nothing
                // now and the next scan reads the file.
                (moved.stamp, moved.id) = (stamp ?? moved.stamp, nil)
                scans[replica].files[path] = nil
                scans[replica].files[SyncPath(file: copy)] = moved
                scans[replica].changed.append(SyncPath(file: copy))
                report.record(.conflict(path: path, copy: SyncPath(file: copy)))
            }
        }
    }
}
