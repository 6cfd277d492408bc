/// Writing and removing files so that a crash never leaves a half-written file. Every
/// file is named by a ``RootedPath``: the write lands in the folder below the root or
/// nowhere.
public enum AtomicFile {
    /// Writes `bytes` to `path`: a temporary file in the same folder, flushed, renamed
    /// over the target, then the folder flushed. Missing parent folders are created. A
    /// file replaced keeps its permissions (a 0600 todo stays private); a new one gets
    /// what the umask gives.
    public static func write(_ bytes: [UInt8], to path: RootedPath) throws(SystemError) {
        // A file that cannot be looked at is written with the default mode: the write that follows reports a disk that refuses.
        _ = try write(bytes, to: path, mode: (try? FileStamp.of(path))?.permissions, replacingOnly: nil)
    }

    /// Writes like ``write(_:to:)``, with permission bits `mode`, but renames over the
    /// target only if `replacingOnly` says yes to what is there just before the rename
    /// (its stamp, nil when there is no file): someone may be typing. Returns false,
    /// leaving the target alone and removing the temporary file, when it says no.
    ///
    /// With `durable: false` the file and its folder are not flushed one by one: for a
    /// new file that replaces nothing, when the caller flushes the whole file system
    /// (``flushFileSystem(containing:)``) before it records that the file exists. With
    /// `flushingFolder: false` the data is flushed before the rename (so a file is never
    /// replaced by less) but the folder is left to such a later flush.
    public static func write(
        _ bytes: [UInt8], to path: RootedPath, mode: UInt32?, creating: UInt32 = 0o666, durable: Bool = true, flushingFolder: Bool = true,
        replacingOnly: ((FileStamp?) -> Bool)?
    ) throws(SystemError) -> Bool {
        let temporary = try prepare(bytes, beside: path, mode: mode, creating: creating, flushing: durable)
        guard try commit(temporary, to: path, replacingOnly: replacingOnly) else { return false }
        if durable && flushingFolder { try path.parent.syncDirectory() }
        return true
    }

    /// A random number drawn once per process, in the name of each temporary file it
    /// makes: a sync records it in its state folder, so that the next sync can tell the
    /// leftovers of a killed run for certain (see `RunRecord`).
    public static let runTag = UInt32.random(in: 1...UInt32.max)

    /// Folio's own temporary name beside `path` for try `attempt`: `.NAME.folio-TAG-N.tmp`,
    /// NAME cut to its first 160 bytes at a character's end (see ``prepare(_:beside:mode:creating:flushing:)``).
    static func temporary(for path: RootedPath, attempt: Int) -> RootedPath {
        var name = path.name
        while name.utf8.count > 160 { name.removeLast() }
        return path.sibling("." + name + ".folio-\(runTag)-\(attempt).tmp")
    }

    /// Writes `bytes` to a new temporary file beside `path`, not renamed (and, unless
    /// `flushing`, not flushed: the first half of a replacement whose flush the caller
    /// batches with others), with permissions `mode` and the extended attributes of the
    /// file at `path` (a replacement), or when `mode` is nil `creating` narrowed by
    /// the umask (as `cp` makes a new file: 0666 by default).
    /// Returns the temporary file's path, for ``commit(_:to:replacingOnly:)``. Its name is
    /// `.NAME.folio-TAG-N.tmp` (``runTag`` and N decimal), with NAME cut to its first 160
    /// bytes (at a character's end) so that the name stays within the 255 bytes file
    /// systems allow; no other name is ever taken for Folio's own.
    public static func prepare(
        _ bytes: [UInt8], beside path: RootedPath, mode: UInt32?, creating: UInt32 = 0o666, flushing: Bool = false
    ) throws(SystemError) -> RootedPath {
        let (temporary, fd) = try openTemporary(beside: path, mode: mode ?? creating)
        // Closed once only: a second close could close a descriptor another thread just opened.
        defer { Syscall.close(fd) }
        do {
            try Syscall.writeAll(fd, bytes, path: temporary.path)
            if let mode {
                // A replacement: it keeps the mode and extended attributes of what it replaces.
                try Syscall.changeMode(fd, mode, path: temporary.path)
                // Extended attributes are kept where the file can be opened; a new file has none, and one that cannot be read is still replaced (its content is what the caller asked for).
                if let source = try? path.open(for: .reading) {
                    defer { Syscall.close(source) }
                    try Syscall.copyExtendedAttributes(from: source, to: fd, path: temporary.path)
                }
            }
            // Where `sync()` does not wait for the writes, a flush batched for later is no flush.
            if flushing || !Syscall.syncWaitsForWrites { try Syscall.sync(fd, path: temporary.path) }
        } catch {
            // Best effort: the temporary is ours and the error that matters is thrown next.
            try? temporary.unlink()
            throw error
        }
        return temporary
    }

    /// Writes `bytes` as a new file at `path`, put in place only while nothing is there,
    /// with `creating` narrowed by the umask, and not flushed: for a caller that flushes
    /// the file system (``flushFileSystem(containing:)``) before it records that the
    /// file exists. Returns the new file's stamp, or nil when a file appeared at `path`
    /// meanwhile (left alone, and nothing of Folio's left beside it).
    ///
    /// Where the system can (Linux), the file is written with no name and then named in
    /// one step that fails if the name is taken: nothing half-written is ever seen under
    /// a name, a run killed before the naming leaves no temporary file, and the create,
    /// rename and two looks by name of a named temporary file are one create, one link and
    /// two looks at the open file. Elsewhere a named temporary file is renamed without
    /// replacing (``commitNew(_:to:)``).
    ///
    /// The stamp is taken from the file still open once it is named, so it carries the
    /// naming's change time, as looking at it by name would; ``FileStamp/afterCommit(ours:now:)``
    /// narrows it the same way (an edit saved into it right after leaves the stamp of
    /// before, which matches nothing on disk, and the next scan reads it again).
    public static func createNew(_ bytes: [UInt8], at path: RootedPath, creating: UInt32 = 0o666) throws(SystemError) -> FileStamp? {
        switch try createUnnamed(bytes, at: path, creating: creating) {
        case .created(let stamp): return stamp
        case .nameTaken: return nil
        case .unsupported: break
        }
        let (temporary, fd) = try openTemporary(beside: path, mode: creating)
        defer { Syscall.close(fd) }
        let ours: FileStamp
        do { ours = try write(bytes, toNew: fd, path: temporary.path) } catch {
            // Best effort: the temporary is ours and the error that matters is thrown next.
            try? temporary.unlink()
            throw error
        }
        guard try commitNew(temporary, to: path) else { return nil }
        return FileStamp.afterCommit(ours: ours, now: try? FileStamp(Syscall.status(of: fd, path: path.path)))
    }

    /// What ``createUnnamed(_:at:creating:)`` did.
    private enum UnnamedCreation {
        case created(FileStamp)
        case nameTaken
        /// No file was made: the system, the file system or a missing `/proc` cannot
        /// make or name an unnamed file (or naming it failed otherwise; the named
        /// temporary file that follows then meets the same failure and reports it).
        case unsupported
    }

    /// ``createNew(_:at:creating:)`` with an unnamed file (`O_TMPFILE`, then `linkat`).
    private static func createUnnamed(_ bytes: [UInt8], at path: RootedPath, creating: UInt32) throws(SystemError) -> UnnamedCreation {
        try makingMissingFolders(of: path) { () throws(SystemError) in
            try path.withParent { (directory, name) throws(SystemError) -> UnnamedCreation in
                guard let fd = try Syscall.openUnnamedFile(in: directory, mode: creating, displayPath: path.path) else { return .unsupported }
                // Unnamed, so closing it (on any path out) frees it: nothing to remove.
                defer { Syscall.close(fd) }
                let ours = try write(bytes, toNew: fd, path: path.path)
                do throws(SystemError) { try Syscall.linkUnnamedFile(fd, as: name, in: directory, displayPath: path.path) } catch where error.code == Syscall.alreadyExists {
                    return .nameTaken
                } catch {
                    return .unsupported
                }
                return .created(FileStamp.afterCommit(ours: ours, now: try? FileStamp(Syscall.status(of: fd, path: path.path))))
            }
        }
    }

    /// Writes `bytes` to the new file open as `fd` and returns its stamp once written.
    /// It is flushed here only where `sync()` does not wait for the writes: elsewhere
    /// the caller's one flush of the file system covers it.
    private static func write(_ bytes: [UInt8], toNew fd: Int32, path: @autoclosure () -> String) throws(SystemError) -> FileStamp {
        try Syscall.writeAll(fd, bytes, path: path())
        if !Syscall.syncWaitsForWrites { try Syscall.sync(fd, path: path()) }
        return FileStamp(try Syscall.status(of: fd, path: path()))
    }

    /// `body`, run once more after the folders above `path` are made if it found them
    /// missing: they are made only then, as looking first cost a call per file.
    private static func makingMissingFolders<T>(of path: RootedPath, _ body: () throws(SystemError) -> T) throws(SystemError) -> T {
        do { return try body() } catch where error.code == Syscall.noSuchFile {
            try path.parent.makeDirectories()
            return try body()
        }
    }

    /// A new temporary file beside `path` (see ``temporary(for:attempt:)``), open for
    /// writing with permissions `mode` (narrowed by the umask); its folders are made
    /// when missing.
    private static func openTemporary(beside path: RootedPath, mode: UInt32) throws(SystemError) -> (RootedPath, Int32) {
        try makingMissingFolders(of: path) { () throws(SystemError) in
            var attempt = 0
            while true {
                let temporary = temporary(for: path, attempt: attempt)
                do throws(SystemError) { return (temporary, try temporary.open(for: .creatingExclusively, mode: mode)) } catch where error.code == Syscall.alreadyExists && attempt < 8 {
                    attempt += 1
                }
            }
        }
    }

    /// The second half: renames the prepared `temporary` over `path` if `replacingOnly`
    /// (when given) says yes to what is there now; else removes it and returns false. The caller has
    /// flushed the temporary file's data first (``flushFileSystem(containing:)``).
    ///
    /// A guarded commit cannot clobber a save that lands between the check and the
    /// rename: a new file is put in place with a rename that fails if the name was taken
    /// meanwhile; a replacement trades places with the target in one step, and the file
    /// it displaced is checked against the one the check saw — if someone saved in
    /// between, the two are traded back and the commit gives up. (Where the file system
    /// cannot rename with flags — some network and FUSE file systems — a plain rename
    /// follows the check, as before.)
    public static func commit(_ temporary: RootedPath, to path: RootedPath, replacingOnly: ((FileStamp?) -> Bool)?) throws(SystemError) -> Bool {
        guard let replacingOnly else {
            do { try temporary.rename(to: path) } catch {
                // Best effort: the temporary is ours and the error that matters is thrown next.
                try? temporary.unlink()
                throw error
            }
            return true
        }
        let current: FileStamp?
        do { current = try FileStamp.of(path) } catch where error.code == Syscall.noSuchFile { current = nil } catch {
            // Best effort: the temporary is ours and the error that matters is thrown next.
            try? temporary.unlink()
            throw error
        }
        guard replacingOnly(current) else {
            // Best effort: the temporary is ours, and "not replaced" is the answer either way.
            try? temporary.unlink()
            return false
        }
        do {
            if let current {
                return try exchange(temporary, into: path, expecting: current)
            }
            try temporary.renameWithoutReplacing(to: path)
            return true
        } catch where Syscall.renameFlagsUnsupported.contains(error.code) {
            do { try temporary.rename(to: path) } catch {
                // Best effort: the temporary is ours and the error that matters is thrown next.
                try? temporary.unlink()
                throw error
            }
            return true
        } catch {
            return try givingUp(temporary, after: error)
        }
    }

    /// Removes `temporary` after its rename failed with `error`: a name taken meanwhile
    /// (theirs stays) is "not replaced", anything else is thrown.
    private static func givingUp(_ temporary: RootedPath, after error: SystemError) throws(SystemError) -> Bool {
        // Best effort: the temporary is ours, and the answer (or the error that matters) follows.
        try? temporary.unlink()
        guard error.code == Syscall.alreadyExists else { throw error }
        return false
    }

    /// ``commit(_:to:replacingOnly:)`` for a new file, kept only while nothing is at
    /// `path`: the no-replace rename is the check (one call, where the general commit
    /// looks first); a file system that cannot rename with flags gets the general commit.
    public static func commitNew(_ temporary: RootedPath, to path: RootedPath) throws(SystemError) -> Bool {
        do {
            try temporary.renameWithoutReplacing(to: path)
            return true
        } catch where Syscall.renameFlagsUnsupported.contains(error.code) {
            return try commit(temporary, to: path, replacingOnly: { $0 == nil })
        } catch {
            return try givingUp(temporary, after: error)
        }
    }

    /// Puts `temporary` in place of `path` by trading the two, then looks at what it
    /// displaced: the file the check saw (`expected`: same size, time and inode), with no
    /// one left writing into it, goes; anything else — a save that landed in between, or
    /// a writer that opened the file before the trade and may still append to it — is
    /// traded back into place and the commit gives up. Should yet another save have
    /// landed before that second trade, the version it displaces is kept beside the
    /// file, never removed.
    static func exchange(_ temporary: RootedPath, into path: RootedPath, expecting expected: FileStamp) throws(SystemError) -> Bool {
        let ours = try FileStamp.of(temporary)
        try temporary.exchange(with: path)
        if isUntouched(temporary, since: expected) {
            try temporary.unlink()
            return true
        }
        try temporary.exchange(with: path)
        // Only our temporary is unlinked, and only when seen to be ours; anything else is kept aside under a new name, never removed. Either step failing leaves a file behind, never loses one; "not replaced" is reported.
        if let back = try? FileStamp.of(temporary), back.isSameFile(as: ours) {
            try? temporary.unlink()
        } else {
            try? temporary.rename(to: path.sibling(path.name + ".folio-displaced-\(UInt32.random(in: 0...UInt32.max))"))
        }
        return false
    }

    /// What ``move(_:to:expecting:)`` did.
    public enum Move: Sendable, Equatable {
        /// Renamed. `stamp` is the stamp of the file now at the target, taken from the file
        /// held open across the rename, when it is the expected file unchanged: it then
        /// vouches for the content the expected stamp did. Nil when that is not known (a
        /// save landed on the file, or on its name, around the rename): the caller records
        /// no stamp, and the next scan reads the file.
        case moved(stamp: FileStamp?)
        /// Not renamed: the source is no longer the expected file, or the target is taken.
        case notMoved
    }

    /// Renames the regular file at `source` to `target` (below the same root, its folder
    /// made when missing) if it is still the file `expected` (its stamp from a scan) and
    /// nothing is at `target`; a file created at `target` meanwhile stays.
    ///
    /// The stamp it returns is never taken by name after the rename: a save made into the
    /// file (an append) or onto its name (an editor's rename) right after the rename would
    /// give the saved version's stamp, and a caller recording that stamp beside the
    /// content it knew would vouch for content the file no longer holds — the next scan
    /// would take the save for nothing new, and the next copy onto the file would replace
    /// it. The file is held open from before the check to after the rename, and its
    /// stamp is taken from that descriptor; it is returned only when that open file is
    /// still the expected one (inode, size, modification time, permissions: the rename
    /// moves only its change time) and is the file now at `target`.
    public static func move(_ source: RootedPath, to target: RootedPath, expecting expected: FileStamp) throws(SystemError) -> Move {
        let fd: Int32
        let opened: FileStamp
        do {
            (fd, opened) = try source.withParent { (directory, name) throws(SystemError) in
                let (fd, status) = try Syscall.openRegularFileAndStatus(name, in: directory, flags: Syscall.OpenPurpose.reading.flags, displayPath: source.path)
                return (fd, FileStamp(status))
            }
        } catch where error.isMissingPath || error.isNotAFileToRead {
            return .notMoved
        }
        defer { Syscall.close(fd) }
        guard opened == expected else { return .notMoved }
        do { try makingMissingFolders(of: target) { () throws(SystemError) in try source.renameWithoutReplacing(to: target) } } catch where error.code == Syscall.alreadyExists || error.isMissingPath {
            // The target taken, or the source gone (moved away since it was opened).
            return .notMoved
        } catch where Syscall.renameFlagsUnsupported.contains(error.code) {
            // A file system that cannot rename with flags: the check, then a plain rename (the small window between them remains).
            guard (try? FileStamp.of(target)) == nil else { return .notMoved }
            try source.rename(to: target)
        }
        // Renamed: a file that cannot be looked at now (the open one, or the one at the target) is not known to be the file moved, and gets no stamp.
        guard let after = try? FileStamp(Syscall.status(of: fd, path: target.path)), after.isSameFile(as: expected),
              (try? FileStamp.of(target)) == after
        else { return .moved(stamp: nil) }
        return .moved(stamp: after)
    }

    /// Whether the file Folio just set aside at `path` (its own name for it, after a
    /// rename or a trade) is the file `expected` (same inode, size, modification time,
    /// permissions) and can take no more writes: no descriptor has it open for writing.
    /// A writer that opened the file by its old name before the rename (an append, a
    /// program saving in place) can write into it after any look at its stamp; once no
    /// one has it open for writing, nothing more can land in it, so the look that follows
    /// is final. Asked in that order. Where the system cannot tell (no leases: Darwin, some
    /// file systems, another user's file), the stamp alone decides, as before. False
    /// when the file cannot be looked at: not known to be the expected one.
    package static func isUntouched(_ path: RootedPath, since expected: FileStamp) -> Bool {
        guard let fd = try? path.open(for: .reading) else { return false }
        defer { Syscall.close(fd) }
        if Syscall.isOpenForWriting(fd, path: path.path) == true { return false }
        guard let stamp = try? FileStamp(Syscall.status(of: fd, path: path.path)) else { return false }
        return stamp.isSameFile(as: expected)
    }

    /// Flushes everything written to the file system holding `path` (and the others:
    /// `sync`).
    public static func flushFileSystem(containing path: RootedPath) throws(SystemError) {
        try Syscall.syncFileSystem(path.path)
    }

    /// Removes `path` and flushes its folder.
    public static func remove(_ path: RootedPath) throws(SystemError) {
        try path.unlink()
        try path.parent.syncDirectory()
    }

    /// Removes `path` only if it is still the file `expected` (same inode, size, time
    /// and mode), with no window in which a save could be lost: the file is first
    /// renamed aside under a temporary name of Folio's (one atomic step), then what
    /// was moved is checked; the expected file is removed, anything else — a save that
    /// landed between the caller's check and the rename — goes back to its name (or,
    /// should the name have been taken yet again meanwhile, stays beside it as
    /// `NAME.folio-displaced-N`, never removed). Returns whether it was removed.
    public static func remove(_ path: RootedPath, expecting expected: FileStamp) throws(SystemError) -> Bool {
        var aside: RootedPath? = nil
        for attempt in 0..<8 {
            let candidate = temporary(for: path, attempt: attempt)
            do {
                try path.renameWithoutReplacing(to: candidate)
                aside = candidate
                break
            } catch where error.code == Syscall.alreadyExists {
                continue
            }
        }
        guard let aside else { throw SystemError(operation: .rename, path: path.path, code: Syscall.alreadyExists) }
        // Removed only when seen to be the expected file, with no one left writing into it; one that cannot be looked at goes back to its name.
        if isUntouched(aside, since: expected) {
            try aside.unlink()
            try path.parent.syncDirectory()
            return true
        }
        do { try aside.renameWithoutReplacing(to: path) } catch where error.code == Syscall.alreadyExists {
            try aside.rename(to: path.sibling(path.name + ".folio-displaced-\(UInt32.random(in: 0...UInt32.max))"))
        }
        return false
    }

    /// The bytes at `path`, or nil when there is no such file.
    public static func contentsIfPresent(_ path: RootedPath) throws(SystemError) -> [UInt8]? {
        do { return try FileReading.contents(of: path) } catch where error.code == Syscall.noSuchFile {
            return nil
        }
    }

    /// Appends `bytes` to the regular file at `path` (created with `mode` when missing),
    /// flushed when `flushing` (and always where `sync()` does not wait for the writes):
    /// the logs and packs of a state folder or a shared history.
    public static func append(_ bytes: [UInt8], to path: RootedPath, mode: UInt32 = 0o600, flushing: Bool) throws(SystemError) {
        let fd = try path.open(for: .appending, mode: mode)
        defer { Syscall.close(fd) }
        try Syscall.writeAll(fd, bytes, path: path.path)
        if flushing || !Syscall.syncWaitsForWrites { try Syscall.sync(fd, path: path.path) }
    }

    /// Writes `bytes` to the file the user named on the command line (`folio merge-file`'s
    /// CURRENT): outside any folder Folio keeps, so the path is the user's own word and a
    /// link there is followed, as `cp` would.
    public static func write(_ bytes: [UInt8], toFileNamedByUser path: String) throws(SystemError) {
        try write(bytes, to: rooted(fileNamedByUser: path))
    }

    /// A path the user named, as a path below its own folder: links in it resolved (their
    /// word), then the folder pinned like any root.
    package static func rooted(fileNamedByUser path: String) throws(SystemError) -> RootedPath {
        // A path that cannot be resolved is used as given: opening it below reports what is wrong.
        let resolved = (try? Syscall.realPath(path)) ?? path
        do { return try RootedFolder(parent(of: resolved))[name(of: resolved)] } catch {
            // Said of the file the user named: its folder is only how it is reached.
            throw SystemError(operation: .open, path: path, code: error.code)
        }
    }

    /// The folder holding `path`.
    package static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    package static func name(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.index(after: slash)...])
    }
}
