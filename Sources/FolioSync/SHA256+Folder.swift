import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions

extension SHA256.Digest {
    /// The "content" of every folder.
    static let folder = SHA256.hash(Array("folio: a folder\n".utf8))
}
