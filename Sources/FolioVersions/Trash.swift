import FolioSystem

/// The files a sync deleted, kept in the state folder by time and replica
/// (`trash/YYYYMMDD-HHMMSS/A/recipes/soup.md`) for 30 days, and brought back by
/// `folio restore`.
public struct Trash: Sendable {
    /// The state folder holding the trash.
    public let state: RootedFolder

    /// The trash of the state folder `state`.
    public init(state: RootedFolder) { self.state = state }

    /// A file in the trash.
    public struct Item: Sendable, Hashable {
        /// When it was deleted (`YYYYMMDD-HHMMSS`, local time, with `-2`… for a second
        /// delete of the same path in one second).
        public var time: String
        /// The replica it was deleted from.
        public var replica: Replica
        /// Its path in that replica.
        public var path: String
    }

    /// Everything in the trash, newest first.
    public func items() -> [Item] {
        var items: [Item] = []
        for time in state["trash"].namesIfListable() {
            for replica in Replica.allCases {
                let folder = place(time: time, replica: replica)
                // Known gap: a trash folder that cannot be walked is left out of the list; saying so needs the list to carry problems to `folio trash` (Sources/folio).
                guard let walk = try? DirectoryWalk.files(under: folder, descend: { _ in true }, include: { _ in true }) else { continue }
                items += walk.paths.map { Item(time: time, replica: replica, path: $0) }
            }
        }
        return items.sorted { ($0.time, $0.path) > ($1.time, $1.path) }
    }

    /// Puts `item` back where it was, under `root` (its replica's folder); refuses to
    /// replace a file that is there now.
    public func restore(_ item: Item, into root: RootedFolder) throws(SyncError) {
        let source = place(time: item.time, replica: item.replica).appending(item.path)
        let target = root[item.path]
        do {
            let bytes = try FileReading.contents(of: source)
            let mode = try FileStamp.of(source).permissions
            guard try AtomicFile.write(bytes, to: target, mode: mode, replacingOnly: { $0 == nil }) else {
                throw SyncError(.restoreBlocked, "\(target) exists: move it away first, then restore again")
            }
            try AtomicFile.remove(source)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.fileIO, "cannot restore \(item.path): " + FileProblem.advice(any: error, writing: true, then: "restore again"))
        }
    }

    /// Moves `root/path` into the trash as deleted from `replica`, only if it is still
    /// `expected` (and, when given, holds content hashing to `hash`): returns false,
    /// leaving it, when it changed (someone may be typing). A second delete of the same
    /// path within one second gets a folder of its own (`…-2`): a trashed version is
    /// never replaced by a later one.
    package func move(_ path: String, from root: RootedFolder, replica: Replica, expected: FileStamp, hash: SHA256.Digest?) throws(SystemError) -> Bool {
        let source = root[path]
        // A file that cannot be looked at is not known to be the one the scan saw: left alone, and the caller reports it changed.
        guard (try? FileStamp.of(source)) == expected else { return false }
        let trash = freePlace(for: path, replica: replica)
        try trash.parent.makeDirectories()
        do {
            try source.rename(to: trash)
            // What was moved must be the file checked, with no one still writing into it: an
            // edit saved between the check and the rename, or a writer that had the file
            // open, puts it back where it was (unless the name was taken again meanwhile,
            // when it stays in the trash, restorable) and the delete gives up.
            if !AtomicFile.isUntouched(trash, since: expected) {
                do { try trash.renameWithoutReplacing(to: source) } catch where Syscall.renameFlagsUnsupported.contains(error.code) {
                    // A probe: put back only where the name is free.
                    if (try? FileStamp.of(source)) == nil { try trash.rename(to: source) }
                }
                return false
            }
        } catch where error.code == Syscall.crossDevice {
            // The state folder on another disk than the replica (a USB stick): copied into
            // the trash, then removed only if still what was copied — moved aside, looked at,
            // and put back if it is not the expected file or is still open for writing
            // (``AtomicFile/remove(_:expecting:)``), never unlinked by its name, where a save
            // landing between a check and the unlink would be lost.
            let bytes = try FileReading.contents(of: source)
            _ = try AtomicFile.write(bytes, to: trash, mode: expected.permissions, replacingOnly: nil)
            // Our copy in the trash goes when the file stays (best effort: an extra trashed version is harmless).
            guard hash.map({ SHA256.hash(bytes) == $0 }) ?? true, try AtomicFile.remove(source, expecting: expected) else {
                try? trash.unlink()
                return false
            }
        }
        return true
    }

    /// ``move(_:from:replica:expected:hash:)`` for a folder that is no replica of a pair
    /// (a store's, a shared folder's).
    package func move(_ path: String, fromFolder root: RootedFolder, expected: FileStamp, hash: SHA256.Digest?) throws(SystemError) -> Bool {
        try move(path, from: root, replica: Self.folderPlace, expected: expected, hash: hash)
    }

    /// ``keep(_:as:replica:mode:)`` for a folder that is no replica of a pair.
    @discardableResult
    package func keep(_ bytes: [UInt8], asFolderFile path: String, mode: UInt32) throws(SystemError) -> RootedPath {
        try keep(bytes, as: path, replica: Self.folderPlace, mode: mode)
    }

    /// Where a lone folder's removals are filed: beside a pair's replica A's, so that one
    /// layout serves both and `folio restore DIR` lists them as it lists a replica's.
    /// (Its items read back as A's; restoring puts them back into the folder.)
    private static let folderPlace = Replica.a

    /// Puts `bytes`, a version of `path` in `replica` that is being replaced, in the
    /// trash with mode `mode`, leaving the file itself where it is: the file's content
    /// before `folio resolve --keep copy` writes the copy's over it.
    /// Returns where it was put, so that a caller whose replacement then fails can take
    /// it back out (``discard(_:)``).
    @discardableResult
    package func keep(_ bytes: [UInt8], as path: String, replica: Replica, mode: UInt32) throws(SystemError) -> RootedPath {
        let trash = freePlace(for: path, replica: replica)
        do { _ = try AtomicFile.write(bytes, to: trash, mode: mode, replacingOnly: nil) } catch {
            // A full disk refuses the file once its folders are made: they go too, so that a
            // fold tried again every few seconds leaves no folder per try.
            removeEmptyFolders(above: trash)
            throw error
        }
        return trash
    }

    /// Takes back a version ``keep(_:as:replica:mode:)`` put in the trash, when the
    /// replacement it was kept for did not happen (the file still holds it), with the
    /// folders made for it: a replacement retried until a full disk has room again
    /// leaves nothing in the trash per try.
    package func discard(_ kept: RootedPath) {
        // Best effort: a version left in the trash is only an extra copy, expired with the rest in 30 days.
        try? kept.unlink()
        removeEmptyFolders(above: kept)
    }

    /// Removes the folders above `path` (`trash/TIME/A/recipes/`) that are empty, up to
    /// the trash's own folder.
    private func removeEmptyFolders(above path: RootedPath) {
        let top = state["trash"].relative
        var folder = path.parent
        // Best effort: the first folder that holds something (or cannot be removed) ends it, and an empty one left is harmless, expired in 30 days.
        while folder.relative != top && !folder.relative.isRoot && (try? folder.removeDirectory()) != nil {
            folder = folder.parent
        }
    }

    /// Where `path`, set aside from `replica` now, goes in the trash: a second one of the
    /// same path within one second gets a folder of its own (`…-2`), so a trashed
    /// version is never replaced by a later one.
    private func freePlace(for path: String, replica: Replica) -> RootedPath {
        let stamp = Syscall.localTimestamp()
        var folder = stamp
        var attempt = 1
        var candidate = place(time: folder, replica: replica).appending(path)
        // A probe for a free name in our own state folder (0700): a name that cannot be looked at there is one nothing holds.
        while (try? FileStamp.of(candidate)) != nil {
            attempt += 1
            folder = stamp + "-\(attempt)"
            candidate = place(time: folder, replica: replica).appending(path)
        }
        return candidate
    }

    /// The trash's folder of what was deleted from `replica` at `time` (`trash/TIME/A`).
    private func place(time: String, replica: Replica) -> RootedPath {
        state["trash"].appending(time).appending(replica.rawValue)
    }

    /// Removes what was deleted more than `days` days ago (by the folder's time).
    package func expire(olderThanDays days: Int) {
        let cutoff = Syscall.localTimestamp(daysAgo: days)
        // What cannot be listed is not expired now: kept, the safe way, and looked at again at the next expiry.
        for time in state["trash"].namesIfListable() where time < cutoff {
            Self.removeTree(state["trash"].appending(time))
        }
    }

    package static func removeTree(_ path: RootedPath) {
        // Best-effort expiry of our own trash: what cannot be removed now is tried again at the next sync, and nothing the user has is touched.
        guard let stamp = try? FileStamp.of(path) else { return }
        if stamp.isDirectory {
            for name in path.namesIfListable() { removeTree(path.appending(name)) }
            try? path.removeDirectory()
        } else {
            try? path.unlink()
        }
    }
}
