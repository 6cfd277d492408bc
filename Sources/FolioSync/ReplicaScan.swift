import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions

/// One replica as a scan found it: every file Folio syncs, with its stamp and content
/// hash (read and hashed only when the stamp differs from the archive's), and what
/// it left alone and why.
package struct ReplicaScan: Sendable {
    /// A file found.
    package struct File: Sendable, Equatable {
        package var stamp: FileStamp
        package var hash: SHA256.Digest
        /// A document's front-matter `id`.
        package var id: String? = nil
    }

    /// The files and folders by path.
    package var files = ScanFiles()
    /// Paths left alone, with the reason (symbolic links, unreadable files).
    package var skipped: [String: String] = [:]
    /// The paths among ``skipped`` that Folio leaves alone by design (links, devices,
    /// sockets): reported, but not a problem a sync should exit 1 for.
    package var passedOver: Set<String> = []
    /// Names the scan renamed to NFC (see ``normalize(_:in:relative:renaming:scan:)``).
    package var normalized: [String] = []
    /// How many files were read and hashed (the rest matched the archive's stamps).
    package var hashed = 0
    /// The files read by this scan whose text holds conflict markers (`<<<<<<<` …
    /// `>>>>>>>`): a merge someone has not finished.
    package var marked: Set<SyncPath> = []
    /// The files whose stamp differs from the archive's (new, edited or touched): with the
    /// archived paths the scan did not find, the only paths a sync need look at.
    package var changed: [SyncPath] = []
    /// How many of the files found the archive knows.
    package var archived = 0
    /// Whether only part of the replica was looked at (``complete(scope:archive:replica:)``):
    /// then ``files`` holds the archive's record outside the scope, and ``vanished`` the
    /// archived paths in scope that were not found.
    package var isPartial = false
    /// The archived paths a partial scan looked for and did not find.
    package var vanished: [SyncPath] = []
    /// The paths with capitals or non-ASCII letters: the only ones whose names can clash
    /// on a case-insensitive disk.
    package var caseFoldable: [SyncPath] = []
    /// Other tools' conflict copies (`NAME.sync-conflict-…`, `NAME (… conflicted copy …)`).
    package var copies: [String] = []
    /// Files whose stamp the archive does not know, with the stamp listed: still to be
    /// read and hashed (``readPending(_:roots:)``). A file the archive has no entry for
    /// at all is not looked at when listed (nil): it is read whatever its stamp, and the
    /// look its read makes once it is open serves as the stamp from before.
    var pending: [(path: SyncPath, stamp: FileStamp?)] = []
    /// The bytes ``readPending(_:roots:)`` read, by path, as they were at the file's
    /// stamp, up to ``keptContentsBudget`` in all: a copy of such a file writes them after
    /// checking the stamp, instead of reading the file a second time.
    var contents: [SyncPath: [UInt8]] = [:]
    /// How many bytes of read files a scan keeps for the copies (a first sync of a
    /// 100,000-file tree of notes reads about 100 MB).
    static let keptContentsBudget: Int64 = 128 << 20
    /// Paths this replica's own rules would sync but the other replica's `.folioignore`
    /// names: held back, and reported.
    package var heldBack: [SyncPath] = []
    /// Folio's own temporary files left by a process that was killed mid-write: older
    /// than an hour (a live write takes far less), or carrying the tag of an earlier
    /// sync of this state folder (`RunRecord`); moved to the trash by the sync.
    package var staleTemporaries: [String] = []

    /// Scans `root`. `known` gives the archive's entry for a path (with this replica's
    /// stamp), so that a file whose stamp is unchanged is not read.
    package static func scan(
        _ root: RootedFolder, ignoring ignore: FolioIgnore, expectedCount: Int = 0,
        known: (SyncPath) -> (stamp: FileStamp?, hash: SHA256.Digest, id: String?)?
    ) throws(SyncError) -> ReplicaScan {
        var scans = [try list(root, ignoring: ignore, expectedCount: expectedCount, known: known)]
        readPending(&scans, roots: [root])
        return scans[0]
    }

    /// Lists `root` and stamps every file, taking the archive's hash for those whose
    /// stamp it knows; the rest are left ``pending``, to be read by ``readPending(_:roots:)``
    /// (so that the reading and hashing of both replicas can be shared out over the cores).
    static func list(
        _ root: RootedFolder, ignoring ignore: FolioIgnore, own: FolioIgnore? = nil, expectedCount: Int = 0, endedRuns: Set<UInt32> = [],
        renamingToNFC: Bool = false, scope: ScanScope? = nil, copyNames: ConflictCopyNames = .builtIn,
        known: (SyncPath) -> (stamp: FileStamp?, hash: SHA256.Digest, id: String?)?
    ) throws(SyncError) -> ReplicaScan {
        let rootStamp: FileStamp
        do { rootStamp = try FileStamp.of(root.root) } catch { throw SyncError(.replicaMissing, "\(root): the replica is missing or cannot be read (\(error)); nothing was changed") }
        guard rootStamp.isDirectory else { throw SyncError(.replicaMissing, "\(root): the replica is not a folder; nothing was changed") }
        var scan = ReplicaScan()
        if scope == nil { scan.files.reserveCapacity(expectedCount) }
        var pending = scope == nil ? [""] : []
        // A folder is synced as an entry of its own, `path/`, so that an empty folder
        // travels and a folder removed on one side is removed on the other. It has no
        // stamp worth comparing (its times change with every file in it): it is known or new.
        // A path the union of both sides' rules ignores but this side's own do not is held
        // back by the other side's `.folioignore`: reported, never silent.
        func ignored(_ path: String, isDirectory: Bool) -> Bool {
            guard ignore.ignores(path, isDirectory: isDirectory) else { return false }
            if let own, !own.ignores(path, isDirectory: isDirectory) { scan.heldBack.append(isDirectory ? SyncPath(folder: path) : SyncPath(file: path)) }
            return true
        }
        func enter(_ path: String, named name: String) {
            guard !FolderRules.isIgnoredDirectory(name) && !ignored(path, isDirectory: true) else { return }
            pending.append(path)
            let key = SyncPath(folder: path)
            if known(key) != nil { scan.archived += 1 } else { scan.changed.append(key) }
            if Self.mayClashByCase(key.key) { scan.caseFoldable.append(key) }
            scan.files[key] = File(stamp: .folder, hash: .folder)
        }
        let oneHourAgo = (Int64(Syscall.now()) - 3_600) * 1_000_000_000
        // What to make of one entry of `folder` (open as `fd`), under the name it is synced by.
        func visit(_ name: String, _ type: EntryType, in folder: String, _ fd: Int32) {
            let path = RelativePath(folder).appending(name).string
            if type == .invalidName {
                scan.skipped[path] = "the name is not valid UTF-8 (shown with its bad bytes as \\xNN): Folio cannot copy it; "
                    + "rename it to a UTF-8 name (convmv -f latin1 -t utf8 --notest converts names in one go)"
                return
            }
            if type == .directory {
                enter(path, named: name)
                return
            }
            // A regular file new to the archive (the listing says regular; not one of
            // Folio's temporaries, whose age decides their fate) is read whatever its
            // stamp: its look is left to the read. On a first sync that was one call in
            // five for every file, on one thread while the other side's was empty.
            let file = SyncPath(file: path)
            let entry = known(file)
            if type == .regular, entry == nil, Self.folioTemporaryTag(name) == nil {
                considerFile(name, file, in: folder, stamp: nil, archived: nil)
                return
            }
            let stamp: FileStamp
            do { stamp = try FileStamp.of(name, in: fd, displayPath: path) } catch {
                // Vanished since it was listed: it is simply not there. Any other failure
                // (a folder without search permission, an I/O error) is no deletion.
                if error.code != Syscall.noSuchFile { scan.skipped[path] = FileProblem.reading(error) }
                return
            }
            if stamp.isDirectory {
                enter(path, named: name)
                return
            }
            if let tag = Self.folioTemporaryTag(name) {
                if stamp.modified < oneHourAgo || endedRuns.contains(tag) { scan.staleTemporaries.append(path) }
                return
            }
            guard stamp.isRegularFile else {
                guard !leftAlone(name, path: path, in: folder) else { return }
                scan.skipped[path] = stamp.isSymbolicLink ? "a symbolic link: Folio never follows or copies links; left alone (name it in .folioignore to silence this)"
                    : "not a regular file (a FIFO, device or socket): left alone (name it in .folioignore to silence this)"
                scan.passedOver.insert(path)
                return
            }
            considerFile(name, file, in: folder, stamp: stamp, archived: entry)
        }
        // Whether a file (not a folder) is silently not synced: the replica's own rule file
        // stays its own, never copied to the other side; what is never synced or ignored.
        func leftAlone(_ name: String, path: String, in folder: String) -> Bool {
            (folder.isEmpty && name == FolioIgnore.fileName) || Self.neverSynced(name) || ignored(path, isDirectory: false)
        }
        // A regular file listed (with its stamp, or nil when it is to be read whatever it
        // is) and the archive's entry for it.
        func considerFile(
            _ name: String, _ file: SyncPath, in folder: String, stamp: FileStamp?, archived: (stamp: FileStamp?, hash: SHA256.Digest, id: String?)?
        ) {
            let path = file.relative
            guard !leftAlone(name, path: path, in: folder) else { return }
            if Self.mayClashByCase(path) { scan.caseFoldable.append(file) }
            if copyNames.original(of: name) != nil { scan.copies.append(path) }
            if let entry = archived {
                scan.archived += 1
                if let stamp, entry.stamp == stamp {
                    scan.files[file] = File(stamp: stamp, hash: entry.hash, id: entry.id)
                    return
                }
            }
            scan.changed.append(file)
            scan.pending.append((file, stamp))
        }
        // Each entry of the open `dir` (the folder `folder`); one that cannot be read ends the
        // listing, the folder reported as skipped.
        func forEachEntry(_ dir: DirectoryStream, of full: RootedPath, _ folder: String, _ body: ((name: String, type: EntryType)) -> Void) {
            while true {
                let entry: (name: String, type: EntryType)?
                do { entry = try Syscall.nextEntry(dir, path: full.path) } catch {
                    scan.skipped[folder] = FileProblem.readingFolder(error)
                    return
                }
                guard let entry else { return }
                body(entry)
            }
        }
        // A hinted scan looks first at the names it was given, each in its folder; a folder
        // among them is listed whole below (`enter`).
        for (folder, names) in scope?.names ?? [:] {
            let full = root[folder]
            let dir: DirectoryStream
            do { dir = try full.openDirectoryStream() } catch {
                // A folder that is gone (or a file now) holds none of the names: they are absent.
                if !error.isMissingPath { scan.skipped[folder] = FileProblem.readingFolder(error) }
                continue
            }
            defer { Syscall.closeDirectory(dir) }
            let fd = Syscall.descriptor(of: dir)
            if names.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) {
                for name in names.sorted() { visit(name, .unknown, in: folder, fd) }
                continue
            }
            // A name beyond ASCII may be on disk in another normalization, beside its twin:
            // the folder's entries equal to a hinted name (Swift compares canonically) go
            // through the same normalization as a full listing.
            var matching: [(name: String, type: EntryType)] = []
            forEachEntry(dir, of: full, folder) { entry in
                if entry.type != .invalidName && names.contains(entry.name) { matching.append(entry) }
            }
            let ascii = matching.filter { $0.name.utf8.allSatisfy { $0 < 0x80 } }
            for (name, type) in ascii { visit(name, type, in: folder, fd) }
            let beyond = matching.filter { !$0.name.utf8.allSatisfy { $0 < 0x80 } }
            for (name, type) in normalize(beyond, in: full, relative: folder, renaming: renamingToNFC, scan: &scan) { visit(name, type, in: folder, fd) }
        }
        while let folder = pending.popLast() {
            let full = root[folder]
            let dir: DirectoryStream
            do { dir = try full.openDirectoryStream() } catch {
                scan.skipped[folder] = FileProblem.readingFolder(error)
                continue
            }
            defer { Syscall.closeDirectory(dir) }
            // Names are looked up in the open folder: a path walked from the root for every
            // file was most of the cost of a scan that finds nothing changed.
            let fd = Syscall.descriptor(of: dir)
            // Names beyond ASCII wait until the whole folder is listed: two of them may be
            // one name in two Unicode normalizations (see `normalize`).
            var beyondASCII: [(name: String, type: EntryType)] = []
            forEachEntry(dir, of: full, folder) { entry in
                if entry.type != .invalidName && !entry.name.utf8.allSatisfy({ $0 < 0x80 }) {
                    beyondASCII.append(entry)
                } else {
                    visit(entry.name, entry.type, in: folder, fd)
                }
            }
            for (name, type) in normalize(beyondASCII, in: full, relative: folder, renaming: renamingToNFC, scan: &scan) { visit(name, type, in: folder, fd) }
        }
        return scan
    }

    /// Reads and hashes the ``pending`` files of `scans` (the replicas at `roots`), the
    /// work split over two threads by bytes to read.
    ///
    /// The stamp recorded is the one from before the read: were the file written while
    /// it was read, the next scan sees a new stamp and reads it again. A file that
    /// changed during the read is read once more; one that keeps changing (a log being
    /// written) is left for a later sync rather than synced half-written.
    /// `offered`, by scan: files another reader just read (a store's watcher), taken where
    /// the file still has the stamp it was read at — hashed, not read again.
    static func readPending(_ scans: inout [ReplicaScan], roots: [RootedFolder], offered: [[SyncPath: FileRead]] = []) {
        let jobs = scans.indices.flatMap { index in scans[index].pending.map { (scan: index, path: $0.path, stamp: $0.stamp) } }
        guard !jobs.isEmpty else { return }
        // In runs, each taken by whichever core is free: split in two halves, one core
        // finished its half (the smaller files) half a second before the other at 100,000
        // files. Runs of up to 256 files, at least eight of them (a resync's hundred
        // files are shared too). A run's files come folder by folder, as listed: each
        // folder opened once per run.
        let run = min(256, max(1, (jobs.count + 7) / 8))
        let runs = ConcurrentSlots<[ReadOutcome]>.map((jobs.count + run - 1) / run) { [jobs] index in
            var pins = FolderPins()
            return jobs[(index * run)..<min(index * run + run, jobs.count)].map { job in
                do throws(SystemError) {
                    let full = try pins.pinned(roots[job.scan][job.path.relative])
                    if job.scan < offered.count, let read = offered[job.scan][job.path] {
                        let stamp: FileStamp
                        if let listed = job.stamp { stamp = listed } else { stamp = try FileStamp.of(full) }
                        if read.stamp == stamp {
                            return .read(File(stamp: stamp, hash: SHA256.hash(read.bytes), id: Self.documentID(job.path.relative, read.bytes)), read.bytes, marked: Self.holdsMarkers(read.bytes))
                        }
                    }
                    var (bytes, opened, after) = try FileReading.contentsAndStamps(of: full)
                    var before = job.stamp ?? opened
                    if after != before {
                        before = after
                        (bytes, _, after) = try FileReading.contentsAndStamps(of: full)
                    }
                    guard after == before else { return .changing }
                    return .read(File(stamp: before, hash: SHA256.hash(bytes), id: Self.documentID(job.path.relative, bytes)), bytes, marked: Self.holdsMarkers(bytes))
                } catch {
                    return .failed(FileProblem.reading(error))
                }
            }
        }
        var kept: Int64 = 0
        // Sized at once: grown by doubling, the tables were rehashed (and their new pages
        // zeroed) on one core while the other waited.
        for index in scans.indices {
            scans[index].files.reserveCapacity(scans[index].pending.count)
            scans[index].contents.reserveCapacity(scans[index].contents.count + scans[index].pending.count)
        }
        for (job, outcome) in zip(jobs, runs.joined()) {
            scans[job.scan].hashed += 1
            switch outcome {
            case .read(let file, let bytes, let marked):
                scans[job.scan].files[job.path] = file
                if marked { scans[job.scan].marked.insert(job.path) }
                if kept + Int64(bytes.count) <= keptContentsBudget {
                    kept += Int64(bytes.count)
                    scans[job.scan].contents[job.path] = bytes
                }
            case .changing: scans[job.scan].skipped[job.path.relative] = "changing while it was read: left for the next sync"
            case .failed(let reason): scans[job.scan].skipped[job.path.relative] = reason
            }
        }
        for index in scans.indices { scans[index].pending = [] }
    }

    /// What reading one file gave.
    private enum ReadOutcome: Sendable {
        case read(File, [UInt8], marked: Bool)
        case changing
        case failed(String)
    }

    /// Whether `bytes` are text holding conflict markers.
    static func holdsMarkers(_ bytes: [UInt8]) -> Bool {
        ConflictFold.isText(bytes) && ConflictFold.hasConflictMarkers(bytes)
    }

    /// Whether `path` has a capital or a non-ASCII letter: only such a path can clash
    /// with another on a case-insensitive disk.
    static func mayClashByCase(_ path: String) -> Bool {
        !path.utf8.allSatisfy { $0 < 0x80 && !($0 >= 65 && $0 <= 90) }
    }

    /// The front-matter `id` of a Markdown document, if it has one.
    static func documentID(_ path: String, _ bytes: [UInt8]) -> String? {
        // A probe: a document that does not parse has no id, and is matched by its path.
        guard path.hasSuffix(".md") || path.hasSuffix(".markdown"), mayHaveID(bytes), let document = try? Document(bytes: bytes) else { return nil }
        switch document["id"] {
        case .string(let text)?, .timestamp(let text)?: return text.isEmpty ? nil : text
        case .int(let number)?: return String(number)
        default: return nil
        }
    }

    /// Whether a line of the front matter could start with an `id` key (`id`, `"id"`,
    /// `'id'`): the document is parsed only then, since most have none.
    static func mayHaveID(_ bytes: [UInt8]) -> Bool {
        var lineStart = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if lineStart {
                var key = index
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { key += 1 }
                if key + 1 < bytes.count && bytes[key] == UInt8(ascii: "i") && bytes[key + 1] == UInt8(ascii: "d") { return true }
                // The front matter ends at its closing line: an `id:` in the body is no key.
                if index > 0 && bytes[index...].starts(with: [45, 45, 45]) || bytes[index...].starts(with: [46, 46, 46]) { return false }
            }
            lineStart = byte == 10
            index += 1
        }
        return false
    }

    /// Names no sync touches: the sync tools' and editors' files, and Folio's own temporary files.
    static func neverSynced(_ name: String) -> Bool {
        FolderRules.isIgnoredFile(name) || isFolioTemporary(name)
    }

    /// `.NAME.folio-TAG-N.tmp` exactly (TAG and N decimal), as ``AtomicFile``
    /// names its temporary files: a user's `.notes.folio-backup.tmp` is not one.
    static func isFolioTemporary(_ name: String) -> Bool { folioTemporaryTag(name) != nil }

    /// The tag in a name of Folio's temporary files (`.NAME.folio-TAG-N.tmp`, TAG and N
    /// decimal), nil for any other name.
    static func folioTemporaryTag(_ name: String) -> UInt32? {
        // Asked of every name a scan meets: most do not start with a dot, and are settled without a copy.
        guard name.utf8.first == UInt8(ascii: ".") else { return nil }
        let bytes = Array(name.utf8)
        guard bytes.count > 12, bytes.suffix(4) == Array(".tmp".utf8)[...] else { return nil }
        let marker = Array(".folio-".utf8)
        guard let start = (1..<(bytes.count - marker.count)).last(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }),
              start > 1
        else { return nil }
        let numbers = bytes[(start + marker.count)..<(bytes.count - 4)].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 48 && $0 <= 57 } }) else { return nil }
        // 0 (never a run's tag) for a number too large to be one.
        return UInt32(String(decoding: numbers[0], as: UTF8.self)) ?? 0
    }
}
