import FolioSystem

/// Where a store moves the file of a record it removes, instead of unlinking it, so
/// that a removal can be undone. `import Folio` gives every store it loads the
/// folder's trash (`folio restore DIR` lists it and brings files back); a store loaded
/// through `FolioStore` alone deletes.
public protocol RemovedFileKeeper: Sendable {
    /// Moves `path` below `folder` into keeping if it is still the file whose stamp is
    /// `expected`; false, leaving it where it is, when it is not (someone saved it
    /// meanwhile).
    func keep(_ path: String, from folder: RootedFolder, expected: FileStamp) throws(SystemError) -> Bool
}
