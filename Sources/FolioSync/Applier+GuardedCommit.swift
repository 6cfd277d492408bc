import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions
import Foundation

/// The guarded commit: each write, rename and replacement made only while the target is what the scan saw, checked again at the rename, so that a save made meanwhile is never lost.
extension Applier {
    /// Renames `from` to `to` on `replica` if `from` is still the file the scan saw
    /// (`expected`) and `to` is free (``AtomicFile/move(_:to:expecting:)``): a file
    /// created at `to` meanwhile stays. Returns what it did; when it did not, says why.
    /// The stamp of a move vouches for the scanned content only when given: a save that
    /// landed on the file around the rename leaves none, and the path must be read again.
    mutating func renamed(_ from: SyncPath, to: SyncPath, on replica: Replica, expected: FileStamp) -> AtomicFile.Move {
        let outcome: AtomicFile.Move
        do { outcome = try AtomicFile.move(full(replica, from), to: full(replica, to), expecting: expected) } catch {
            report.record(skipped: replica, from, "cannot rename it: " + FileProblem.advice(any: error, writing: true))
            return .notMoved
        }
        if outcome == .notMoved { report.record(.changedDuringSync(path: from)) }
        return outcome
    }

    /// The bytes of the file at `path` if, once read, it has the stamp `expected`; nil
    /// when it has another.
    static func contents(of path: RootedPath, ifStamped expected: FileStamp) throws(SystemError) -> [UInt8]? {
        let (bytes, stamp) = try FileReading.contentsAndStamp(of: path)
        return stamp == expected ? bytes : nil
    }

    /// Writes `bytes` at `path` in `replica` if the file there is still what the scan saw.
    mutating func write(_ bytes: [UInt8], _ path: SyncPath, in replica: Replica, executable: Bool, newMode: UInt32? = nil) -> FileStamp? {
        writeReplacing(bytes, path, in: replica, expected: scanned(replica).files[path]?.stamp, executable: executable, newMode: newMode)
    }

    /// Writes `bytes` at `path` in `replica` if the file there still has the stamp
    /// `expected` (nil: absent). A new file is written now (flushed later with the rest);
    /// a file that replaces another is prepared now and renamed by
    /// ``commitReplacements()`` once all of them are flushed, so that no file is ever
    /// replaced by less than it held. Returns the new stamp, or for a replacement a
    /// placeholder (size -1) that ``commitReplacements()`` corrects.
    ///
    /// A replacement keeps the permissions of the file it replaces (a 0600 file stays
    /// private), with the executable bit as `executable` says; a new file gets
    /// `newMode` (the permissions of the file it copies) narrowed by the umask, as `cp`
    /// makes one, or without it 0666 (0777 when executable) narrowed so.
    mutating func writeReplacing(
        _ bytes: [UInt8], _ path: SyncPath, in replica: Replica, expected: FileStamp?, executable: Bool, newMode: UInt32? = nil
    ) -> FileStamp? {
        guard insideRoot(replica, path) else { return nil }
        do {
            guard let expected else {
                let creating = newMode.map { $0 & 0o777 } ?? (executable ? 0o777 : 0o666)
                // Its stamp from the new file itself, never looked up by name after: an edit
                // saved into it at once must not be recorded as what Folio wrote.
                guard let stamp = try AtomicFile.createNew(bytes, at: full(replica, path), creating: creating) else {
                    report.record(.changedDuringSync(path: path))
                    return nil
                }
                return stamp
            }
            let mode = expected.permissions(executable: executable)
            let temporary = try AtomicFile.prepare(bytes, beside: full(replica, path), mode: mode)
            replacements.append((replica, path, temporary, expected, archive.entries[path], SHA256.hash(bytes)))
            return Self.placeholder(mode: mode)
        } catch {
            report.record(skipped: replica, path, Self.cannotWrite(error))
            return nil
        }
    }

    /// The stamp recorded for a replacement not yet renamed: ``commitReplacements()``
    /// puts the real one in its place.
    static func placeholder(mode: UInt32) -> FileStamp {
        FileStamp(size: -1, modified: 0, changed: 0, inode: 0, type: .regular, permissions: mode)
    }

    /// Renames every prepared replacement over its target, after one flush of them all;
    /// a target that changed meanwhile keeps its content, and its path goes back to
    /// what the archive said before (the next sync looks at it again).
    mutating func commitReplacements() {
        guard !replacements.isEmpty else { return }
        do { try AtomicFile.flushFileSystem(containing: state.root) } catch {
            // Best effort: the temporaries are ours and the failed flush is reported below.
            for item in replacements { try? item.temporary.unlink() }
            for item in replacements {
                setEntry(item.before, at: item.path)
                report.record(.changedDuringSync(path: item.path))
            }
            report.record(stateNotWritten: "cannot flush the disk: " + FileProblem.advice(any: error, writing: true) + "; the files not replaced are tried again at the next sync")
            replacements.removeAll()
            return
        }
        // The renames on both cores, each its own file's (a 1% resync at 100,000 files
        // replaces 2,000); what they did is recorded below, in order.
        let items = replacements, folders = engine.folders
        let outcomes = ConcurrentSlots<(ours: FileStamp?, renamed: Result<Bool, SystemError>, now: FileStamp?)>.map(items.count) { index in
            let item = items[index]
            let target = folders[item.replica][item.path.relative]
            // The stamp of what Folio wrote, from its own file before the rename: the one
            // taken by path after it is Folio's only if it is that very file (an edit saved
            // right after the rename must not be recorded as what Folio wrote).
            // Ours not to be looked at: not vouched for, so the path is reported changed below.
            let ours = try? FileStamp.of(item.temporary)
            let renamed = Result { () throws(SystemError) in try AtomicFile.commit(item.temporary, to: target) { $0 == item.expected } }
            // Only narrows the stamp to the file now there: without it, the stamp of ours is used.
            let now = ours != nil && (try? renamed.get()) == true ? try? FileStamp.of(target) : nil
            return (ours, renamed, now)
        }
        for (item, outcome) in zip(items, outcomes) {
            let renamed: Bool
            do { renamed = try outcome.renamed.get() } catch {
                // The disk refused (the commit cleans up its temporary): said with the fix,
                // not taken for an edit made meanwhile; the next sync tries again.
                report.record(skipped: item.replica, item.path, Self.cannotWrite(error))
                setEntry(item.before, at: item.path)
                continue
            }
            guard renamed, let ours = outcome.ours else {
                report.record(.changedDuringSync(path: item.path))
                setEntry(item.before, at: item.path)
                continue
            }
            let stamp = FileStamp.afterCommit(ours: ours, now: outcome.now)
            // Only onto an entry that records what was written: when the other side's
            // commit failed, the entry went back to the old version, and this stamp must
            // not vouch for it.
            if var entry = archive.entries[item.path], entry.hash == item.hash {
                entry.setStamp(stamp, in: item.replica)
                setEntry(entry, at: item.path)
            }
        }
        replacements.removeAll()
    }
}
