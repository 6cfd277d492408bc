import FolioSystem
import FolioVersions

/// The files and folders a scan found, by path. A partial scan (one of a watcher's
/// hints) falls back to the archive for what it did not look at: those paths read as
/// the archive recorded them in its replica, looked up there, never copied, so that a
/// scan of three paths costs three paths however large the replica.
package struct ScanFiles: Sendable {
    private var found: [SyncPath: ReplicaScan.File] = [:]
    /// The archive taken for what was not looked at, and the replica it is read for.
    private var fallback: (archive: SyncArchive, replica: Replica)?
    /// Paths set absent while falling back: they read as absent whatever the archive says.
    private var gone: Set<SyncPath> = []

    package init() {}

    mutating func reserveCapacity(_ count: Int) { found.reserveCapacity(count) }

    /// From now on, a path not found reads as `archive` recorded it in `replica`.
    mutating func fallBack(to archive: SyncArchive, in replica: Replica) { fallback = (archive, replica) }

    /// No fallback any more: the archive may change (a scan that held it would make every
    /// change to it copy it whole); only the paths found are left.
    mutating func dropFallback() {
        fallback = nil
        gone = []
    }

    /// The file or folder at `path`, nil when absent.
    package subscript(path: SyncPath) -> ReplicaScan.File? {
        get {
            if let file = found[path] { return file }
            guard let fallback, !gone.contains(path), let entry = fallback.archive.entries[path] else { return nil }
            return ReplicaScan.File(stamp: entry.stamp(in: fallback.replica) ?? .unknown, hash: entry.hash, id: entry.id)
        }
        set {
            found[path] = newValue
            guard fallback != nil else { return }
            if newValue == nil { gone.insert(path) } else { gone.remove(path) }
        }
    }

    /// Whether any path and its file satisfy `predicate` (the archive's too when falling
    /// back: stops at the first).
    package func contains(where predicate: (_ path: SyncPath, _ file: ReplicaScan.File) -> Bool) -> Bool {
        if found.contains(where: { predicate($0.key, $0.value) }) { return true }
        guard let fallback else { return false }
        return fallback.archive.entries.contains { path, entry in
            found[path] == nil && !gone.contains(path)
                && predicate(path, ReplicaScan.File(stamp: entry.stamp(in: fallback.replica) ?? .unknown, hash: entry.hash, id: entry.id))
        }
    }

    /// Every path (the archive's too when falling back).
    package var keys: [SyncPath] {
        guard let fallback else { return Array(found.keys) }
        return Array(found.keys) + fallback.archive.entries.keys.filter { found[$0] == nil && !gone.contains($0) }
    }
}
