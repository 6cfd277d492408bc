import FolioSystem
import FolioVersions
/// The folds a sync has begun, saved in the state folder (`folds`) before any merged
/// file replaces its original, and removed once the copies are in the trash. Were the
/// sync killed in between, the next one finds each original already holding the merge
/// and its copy unchanged, and trashes the copy without merging it again (a second merge
/// of changes already in could conflict where the first did not).
struct FoldJournal: Sendable, Equatable {
    /// One fold: the copy on `replica`, folded into `original`, with the copy's hash and
    /// the merged file's.
    struct Entry: Sendable, Equatable {
        var replica: Replica
        var copy: SyncPath
        var original: SyncPath
        var copyHash: SHA256.Digest
        var mergedHash: SHA256.Digest
    }

    var entries: [Entry] = []

    static func path(_ state: RootedFolder) -> RootedPath { state["folds"] }

    /// The journal in `state`; empty when there is none (or it cannot be read: then the
    /// copies are merged again, which loses nothing).
    static func load(_ state: RootedFolder) -> FoldJournal {
        // An unreadable journal is an empty one: the copies are merged again, which loses nothing (see above).
        guard let bytes = (try? AtomicFile.contentsIfPresent(path(state))) ?? nil else { return FoldJournal() }
        var journal = FoldJournal()
        for line in bytes.split(separator: 10) {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 5, let replica = Replica(rawValue: fields[0]), let copy = LineFields.unescaped(fields[1]),
                  let original = LineFields.unescaped(fields[2]), let copyHash = SHA256.Digest(hex: fields[3]),
                  let mergedHash = SHA256.Digest(hex: fields[4])
            else { continue }
            journal.entries.append(Entry(replica: replica, copy: SyncPath(file: copy), original: SyncPath(file: original), copyHash: copyHash, mergedHash: mergedHash))
        }
        return journal
    }

    /// Saves the journal durably in `state`.
    func save(_ state: RootedFolder) throws(SystemError) {
        let text = entries.map {
            [$0.replica.rawValue, LineFields.escaped($0.copy.key), LineFields.escaped($0.original.key), $0.copyHash.description, $0.mergedHash.description]
                .joined(separator: "\t") + "\n"
        }.joined()
        _ = try AtomicFile.write(Array(text.utf8), to: Self.path(state), mode: 0o600, replacingOnly: nil)
    }

    /// Removes the journal from `state`.
    static func remove(_ state: RootedFolder) {
        // Best effort: a journal left behind names copies that are gone or merged already; folding them again loses nothing.
        try? AtomicFile.remove(path(state))
    }
}
