import FolioFormat
import FolioSystem

/// One replica as a scan found it: every file Folio syncs, with its stamp and content
/// hash (read and hashed only when the stamp differs from the archive's), and what
/// it left alone and why.
public struct ReplicaScan: Sendable {
    /// A file found.
    public struct File: Sendable, Equatable {
        public var stamp: FileStamp
        public var hash: SHA256.Digest
        /// A document's front-matter `id`.
        public var id: String? = nil
    }

    /// The files by path.
    public var files: [String: File] = [:]
    /// Paths left alone, with the reason (symbolic links, unreadable files).
    public var skipped: [String: String] = [:]
    /// How many files were read and hashed (the rest matched the archive's stamps).
    public var hashed = 0
    /// Folio's own temporary files older than an hour: left by a process that was
    /// killed mid-write (a live write takes far less), removed by the sync.
    public var staleTemporaries: [String] = []

    /// Scans `root`. `known` gives the archive's stamp and hash for a path, so that a
    /// file whose stamp is unchanged is not read.
    public static func scan(
        _ root: String, ignoring ignore: FolioIgnore, expectedCount: Int = 0, known: (String) -> (FileStamp, SHA256.Digest, String?)?
    ) throws(SyncError) -> ReplicaScan {
        let rootStamp: FileStamp
        do { rootStamp = try FileStamp.of(root) } catch { throw SyncError("\(root): the replica is missing or cannot be read (\(error)); nothing was changed") }
        guard rootStamp.isDirectory else { throw SyncError("\(root): the replica is not a folder; nothing was changed") }
        var scan = ReplicaScan()
        scan.files.reserveCapacity(expectedCount)
        var pending = [""]
        while let folder = pending.popLast() {
            let full = folder.isEmpty ? root : root + "/" + folder
            let dir: DirectoryStream
            do { dir = try Syscall.openDirectory(full) } catch {
                scan.skipped[folder] = "cannot read the folder: \(error)"
                continue
            }
            defer { Syscall.closeDirectory(dir) }
            while true {
                let entry: (name: String, type: EntryType)?
                do { entry = try Syscall.nextEntry(dir, path: full) } catch {
                    scan.skipped[folder] = "cannot read the folder: \(error)"
                    break
                }
                guard let entry else { break }
                let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
                let stamp: FileStamp
                do { stamp = try FileStamp.of(root + "/" + path) } catch {
                    // Vanished since it was listed: it is simply not there.
                    continue
                }
                if stamp.isDirectory {
                    if !FolderRules.isIgnoredDirectory(entry.name) && !ignore.ignores(path, isDirectory: true) { pending.append(path) }
                    continue
                }
                if Self.isFolioTemporary(entry.name) {
                    if stamp.modified < (Int64(Syscall.now()) - 3_600) * 1_000_000_000 { scan.staleTemporaries.append(path) }
                    continue
                }
                guard !Self.neverSynced(entry.name), !ignore.ignores(path, isDirectory: false) else { continue }
                guard stamp.isRegularFile else {
                    scan.skipped[path] = stamp.isSymbolicLink ? "a symbolic link: Folio never follows or copies links" : "not a regular file"
                    continue
                }
                if let (knownStamp, hash, id) = known(path), knownStamp == stamp {
                    scan.files[path] = File(stamp: stamp, hash: hash, id: id)
                    continue
                }
                do {
                    let bytes = try FileReading.contents(of: root + "/" + path)
                    scan.hashed += 1
                    // The stamp after reading: a file written meanwhile is read again next time.
                    let after = (try? FileStamp.of(root + "/" + path)) ?? stamp
                    scan.files[path] = File(stamp: after == stamp ? stamp : after, hash: SHA256.hash(bytes), id: Self.documentID(path, bytes))
                } catch {
                    scan.skipped[path] = "cannot read: \(error)"
                }
            }
        }
        return scan
    }

    /// The front-matter `id` of a Markdown document, if it has one.
    static func documentID(_ path: String, _ bytes: [UInt8]) -> String? {
        guard path.hasSuffix(".md") || path.hasSuffix(".markdown"), let document = try? Document(bytes: bytes) else { return nil }
        switch document["id"] {
        case .string(let text)?, .timestamp(let text)?: return text.isEmpty ? nil : text
        case .int(let number)?: return String(number)
        default: return nil
        }
    }

    /// Names no sync touches: the sync tools' and editors' files, and Folio's own temporary files.
    static func neverSynced(_ name: String) -> Bool {
        FolderRules.isIgnoredFile(name) || isFolioTemporary(name)
    }

    /// `.NAME.folio-RANDOM-N.tmp`, as ``AtomicFile`` names its temporary files.
    static func isFolioTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".folio-") && name.hasSuffix(".tmp")
    }
}
