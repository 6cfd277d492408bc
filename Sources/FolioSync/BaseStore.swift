import FolioSystem

/// The merge bases: every text version both replicas agreed on, by SHA-256, appended
/// to one pack file (`bases.pack`) with an index of offsets (`bases.index`), so that a
/// first sync of many files writes two files here, not one per file. Nothing in it is
/// ever rewritten; a version is stored once (the archive's hashes say which are).
/// A record the archive never came to name (a sync killed before saving it) is only
/// unused space.
final class BaseStore {
    private let pack: String
    private let index: String
    /// Hashes stored before this run (the archive's) and during it: gathered on the
    /// first store, since most syncs store nothing.
    private var stored: Set<SHA256.Digest> = []
    private var known: (() -> Set<SHA256.Digest>)?
    private var pending: [UInt8] = []
    private var pendingIndex: [UInt8] = []
    private var pendingHashes: [SHA256.Digest] = []
    private var packSize: Int64?
    private var offsets: [SHA256.Digest: (offset: Int64, length: Int)]?

    /// The bases of the state folder `state`; `known` are the hashes already stored.
    init(state: String, known: @escaping @autoclosure () -> Set<SHA256.Digest>) {
        pack = state + "/bases.pack"
        index = state + "/bases.index"
        self.known = known
    }

    /// Keeps `bytes` under its hash `hash`, unless it is already kept.
    func store(_ bytes: [UInt8], hash: SHA256.Digest) throws(SystemError) {
        if let known {
            // Not a lazy property: inserting into one copied the whole set each time.
            stored = known()
            self.known = nil
        }
        guard !stored.contains(hash) else { return }
        if packSize == nil { packSize = (try? FileStamp.of(pack))?.size ?? 0 }
        let offset = packSize! + Int64(pending.count)
        pending += bytes
        pendingIndex += Array("\(hash) \(offset) \(bytes.count)\n".utf8)
        pendingHashes.append(hash)
        offsets?[hash] = (offset, bytes.count)
        stored.insert(hash)
        if pending.count >= 4 << 20 { try flush() }
    }

    /// Writes what ``store(_:)`` gathered (the caller flushes the file system later).
    func flush() throws(SystemError) {
        guard !pending.isEmpty else { return }
        do {
            for (path, bytes) in [(pack, pending), (index, pendingIndex)] {
                let fd = try Syscall.openForAppending(path)
                defer { Syscall.close(fd) }
                try Syscall.writeAll(fd, bytes, path: path)
                if !Syscall.syncWaitsForWrites { try Syscall.sync(fd, path: path) }
            }
        } catch {
            // The pack's size is no longer known: drop what is pending (those versions are
            // stored again when next recorded) and read the size afresh.
            packSize = nil
            offsets = nil
            for hash in pendingHashes { stored.remove(hash) }
            (pending, pendingIndex, pendingHashes) = ([], [], [])
            throw error
        }
        pendingHashes.removeAll()
        packSize = (packSize ?? 0) + Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
        pendingIndex.removeAll(keepingCapacity: true)
    }

    /// The version with this hash, checked against it; nil when it was never kept.
    func load(_ hash: SHA256.Digest) -> [UInt8]? {
        try? flush()
        if offsets == nil {
            var table: [SHA256.Digest: (Int64, Int)] = [:]
            let text = (try? AtomicFile.contentsIfPresent(index)) ?? nil ?? []
            // Over the bytes, as the archive is read: an index has a line per version.
            text.withUnsafeBufferPointer { buffer in
                var start = 0
                while start < buffer.count {
                    var end = start
                    while end < buffer.count && buffer[end] != 10 { end += 1 }
                    let line = buffer[start..<end]
                    start = end + 1
                    let fields = line.split(separator: 32)
                    guard fields.count == 3, let digest = SHA256.Digest(hex: UnsafeBufferPointer(rebasing: fields[0])),
                          let offset = SyncArchive.integer(fields[1]), let length = SyncArchive.integer(fields[2])
                    else { continue }
                    table[digest] = (offset, Int(length))
                }
            }
            offsets = table
        }
        guard let (offset, length) = offsets?[hash], let fd = try? Syscall.openForReading(pack) else { return nil }
        defer { Syscall.close(fd) }
        guard let bytes = try? Syscall.read(fd, count: length, at: offset, path: pack), SHA256.hash(bytes) == hash else { return nil }
        return bytes
    }
}
