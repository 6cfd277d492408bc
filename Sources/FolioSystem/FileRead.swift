/// One file as a read of a whole folder found it: its bytes and its stamp once read.
/// A store's load keeps them for a second reader of the folder at the same moment (the
/// shared history's first record, `folio watch`'s report of changed fields), so that
/// the folder is read once, not once per reader.
package struct FileRead: Sendable {
    /// The path, relative to the folder.
    package let path: String
    /// What the file held.
    package let bytes: [UInt8]
    /// Its stamp once read: a reader that needs the file left alone for a while tells
    /// from it how long ago it changed.
    package let stamp: FileStamp

    package init(path: String, bytes: [UInt8], stamp: FileStamp) {
        (self.path, self.bytes, self.stamp) = (path, bytes, stamp)
    }
}
