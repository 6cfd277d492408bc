import FolioSystem

/// The file `STATE/marked`: the paths whose last version a sync read held conflict
/// markers (`<<<<<<<` … `>>>>>>>`), a merge someone has not finished.
///
/// A sync reads only the files that changed; this list lets one that finds such a
/// file unchanged still say so, rather than call the replicas in step. Paths are
/// separated by NUL (a name may hold a line break).
struct MarkedFiles {
    let state: RootedFolder
    private var path: RootedPath { state["marked"] }

    /// The paths listed; none when the file is missing or cannot be read (the list only
    /// carries word of a file from one sync to the next: unread, the next sync that
    /// reads the file says it again).
    func paths() -> Set<SyncPath> {
        let bytes = ((try? AtomicFile.contentsIfPresent(path)) ?? nil) ?? []
        return Set(bytes.split(separator: 0).map { SyncPath(file: String(decoding: $0, as: UTF8.self)) })
    }

    /// Lists `paths` instead, when they differ from `previous` (what ``paths()`` gave).
    func save(_ paths: Set<SyncPath>, previous: Set<SyncPath>) throws(SystemError) {
        guard paths != previous else { return }
        if paths.isEmpty {
            do { try AtomicFile.remove(path) } catch where error.isMissingPath {}
            return
        }
        let bytes: [UInt8] = paths.map(\.key).sorted().flatMap { Array($0.utf8) + [0] }
        _ = try AtomicFile.write(bytes, to: path, mode: 0o600, replacingOnly: nil)
    }

    /// The paths holding markers after a pass: those listed before that the pass neither
    /// read again (`reread`) nor saw go (`present` false), with those it read or wrote
    /// with markers (`found`).
    static func after(previous: Set<SyncPath>, reread: (SyncPath) -> Bool, present: (SyncPath) -> Bool, found: Set<SyncPath>) -> Set<SyncPath> {
        previous.filter { present($0) && !reread($0) }.union(found.filter(present))
    }
}
