import FolioSystem
import FolioVersions

/// The file `STATE/runs`: the tags (``AtomicFile/runTag``) of the syncs of this state
/// folder that started and have not yet been seen to finish. A sync holds the state
/// folder's lock, so when a later sync takes the lock, any run listed there that is not
/// its own process is over — finished or killed — and a temporary file carrying its
/// tag (`.NAME.folio-TAG-N.tmp`) is provably a leftover of Folio's, moved to the trash
/// at once rather than after the hour an unknown one waits.
struct RunRecord {
    let state: RootedFolder
    private var path: RootedPath { state["runs"] }

    /// The tags of earlier runs, after adding this process's own (flushed before the
    /// run writes anything, so that a kill at any later moment leaves it listed).
    func begin() throws(SystemError) -> Set<UInt32> {
        let earlier = tags()
        try AtomicFile.append(Array("\(AtomicFile.runTag)\n".utf8), to: path, flushing: true)
        // This process's own temporary files (an app's store writing while it syncs) are never leftovers.
        return earlier.subtracting([AtomicFile.runTag])
    }

    /// Records that the run finished: only the earlier runs some of whose leftovers are
    /// still in a replica (`unmoved`) stay listed.
    func finish(unmoved: Set<UInt32>) throws(SystemError) {
        let listed = tags()
        let kept = listed.intersection(unmoved)
        guard kept != listed else { return }
        let text = kept.sorted().map { "\($0)\n" }.joined()
        _ = try AtomicFile.write(Array(text.utf8), to: path, mode: 0o600, replacingOnly: nil)
    }

    /// The tags listed now; a line that does not parse (cut short by a crash) is skipped.
    func tags() -> Set<UInt32> {
        // The list only speeds up cleaning: unread, a run's leftovers are not known as Folio's and wait the hour any unknown temporary waits.
        let bytes = ((try? AtomicFile.contentsIfPresent(path)) ?? nil) ?? []
        return Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { UInt32($0) })
    }
}
