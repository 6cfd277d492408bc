import FolioSystem

extension ReplicaScan {
    /// This scan of `scope` alone made into a scan of the whole replica: every path
    /// outside the scope as the archive last recorded it in `replica`, every archived
    /// path in scope that was not found gone (``vanished``).
    mutating func complete(scope: ScanScope, archive: SyncArchive, replica: Replica) {
        let found = files
        // Keys kept: the dictionary's layout is the archive's, built without hashing a path again.
        files = archive.entries.mapValues { File(stamp: $0.stamp(in: replica) ?? .unknown, hash: $0.hash, id: $0.id) }
        for path in scope.archivedPaths(in: archive) where found[path] == nil {
            files[path] = nil
            vanished.append(path)
        }
        for (path, file) in found { files[path] = file }
        isPartial = true
    }
}

extension FileStamp {
    /// The stamp of an archived file whose stamp in a replica is not known: it matches
    /// none on disk, so the file is read again whenever it is looked at.
    static let unknown = FileStamp(size: -1, modified: 0, changed: 0, inode: 0, type: .regular, permissions: 0)
}
