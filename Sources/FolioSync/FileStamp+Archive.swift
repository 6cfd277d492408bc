import FolioSystem
import FolioVersions

extension FileStamp {
    /// The stamp of an archived file whose stamp in a replica is not known: it matches
    /// none on disk, so the file is read again whenever it is looked at.
    static let unknown = FileStamp(size: -1, modified: 0, changed: 0, inode: 0, type: .regular, permissions: 0)
}

extension FileStamp {
    /// The stamp recorded for every folder. Typed as a file's, as the archive reads every
    /// stamp back, so that a recorded folder compares equal to itself.
    static let folder = FileStamp(size: 0, modified: 0, changed: 0, inode: 0, type: .regular, permissions: 0)
}
