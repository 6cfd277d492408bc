import FolioSystem
import FolioVersions

/// A file as read for the history: its bytes, its stamp once read, and the hash it is
/// logged under — nil for what is never a version (binary, larger than
/// ``SharedHistory/largestVersion``, or holding git's or a merge's conflict markers).
/// The hash is taken where the file is read, on every core for a whole folder.
package struct VersionRead: Sendable {
    package let bytes: [UInt8]
    package let stamp: FileStamp
    package let hash: SHA256.Digest?

    package init(_ read: (bytes: [UInt8], stamp: FileStamp)) {
        (bytes, stamp) = read
        let isVersion = bytes.count <= SharedHistory.largestVersion && ConflictFold.isText(bytes) && !ConflictFold.hasConflictMarkers(bytes)
        hash = isVersion ? SHA256.hash(bytes) : nil
    }
}
