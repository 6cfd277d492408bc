import FolioFolder
import FolioStore
import FolioSync
import FolioSystem

/// The trash of one folder (in its state folder, as `folio fold` and `folio resolve`
/// keep it): where a store `import Folio` loads moves the files of the records it
/// removes, listed and restored by ``Store/trashedFiles()``, ``Store/restore(_:)`` and
/// `folio restore DIR`.
public struct FolderTrash: RemovedFileKeeper {
    /// The state folder holding the trash (made, 0700, at the first removal).
    public let state: String

    /// The trash in `state`, else in the folder's default state folder (the one
    /// `folio fold`, `folio restore DIR` and a ``SyncedFolder`` use).
    public init(folder: String, state: String? = nil) {
        // A folder that cannot be resolved now is named as given: its removals then fail
        // at the move, and are reported, rather than going to another folder's trash.
        self.state = state ?? SharedFolder.defaultState(for: (try? Syscall.realPath(folder)) ?? folder)
    }

    /// Moves the file into the trash if it is still `expected`.
    public func keep(_ path: String, from folder: RootedFolder, expected: FileStamp) throws(SystemError) -> Bool {
        try Trash(state: try RootedFolder.creating(state, mode: 0o700)).move(path, fromFolder: folder, expected: expected, hash: nil)
    }

    /// The trash, when its state folder exists.
    func opened() -> Trash? {
        // No state folder yet: nothing was ever removed into it.
        (try? RootedFolder(state)).map(Trash.init(state:))
    }
}

extension Store {
    /// Reads every Markdown file under `root` and `folio.yaml`, as
    /// `FolioStore`'s `load(_:)` does; the files of records it removes go to the
    /// folder's trash (``FolderTrash``), restorable.
    public static func load(_ root: String) async throws(SystemError) -> Store {
        try await load(root, removedFiles: FolderTrash(folder: root))
    }

    /// The files removed into the folder's trash (by this store or by `folio`), newest
    /// first; empty for a store that deletes.
    public func trashedFiles() -> [Trash.Item] {
        (removedFiles as? FolderTrash)?.opened()?.items() ?? []
    }

    /// Puts `item` back where it was (never over a file there now); the store reads it again.
    public func restore(_ item: Trash.Item) async throws(SyncError) {
        guard let trash = (removedFiles as? FolderTrash)?.opened() else {
            throw SyncError(.fileIO, "\(item.path) is not in this folder's trash")
        }
        try trash.restore(item, into: folder)
        await dispatch(.fileChanged(path: item.path, bytes: []))
    }
}
