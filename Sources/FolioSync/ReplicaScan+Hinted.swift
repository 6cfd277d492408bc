import FolioSystem
import FolioVersions

extension ReplicaScan {
    /// This scan of `scope` alone made into a scan of the whole replica: every path
    /// outside the scope as the archive last recorded it in `replica`, every archived
    /// path in scope that was not found gone (``vanished``).
    mutating func complete(scope: ScanScope, archive: SyncArchive, replica: Replica) {
        let found = files
        files.fallBack(to: archive, in: replica)
        for path in scope.archivedPaths(in: archive) where found[path] == nil {
            files[path] = nil
            vanished.append(path)
        }
        isPartial = true
    }
}
