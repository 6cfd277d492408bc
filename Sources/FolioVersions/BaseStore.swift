import FolioSystem

/// The merge bases: every text version both replicas agreed on, by SHA-256, appended
/// to one pack file (`bases.pack`) with an index of offsets (`bases.index`), so that a
/// first sync of many files writes two files here, not one per file. Nothing in it is
/// ever rewritten; a version is stored once (the archive's hashes say which are).
/// The versions written together go in blocks of up to ``blockSize`` bytes, each
/// compressed (``BlockCompression``) when that makes it smaller: versions of records
/// are much alike, and a block of them takes a fraction of their bytes. The index has a
/// line `HASH OFFSET LENGTH` for a version stored as it is (the hash in 64 hex digits,
/// as earlier Folios wrote it, or 43 base64url characters), and for a compressed block
/// a line `block OFFSET BLOCKLENGTH` followed by a line `HASH LENGTH` for each version
/// in it, in order (the version's bytes follow the ones before it in the decompressed
/// block): with one hash per version, the index was most of the state's bytes.
/// A record the archive never came to name (a sync killed before saving it) is only
/// unused space, given back by ``compact(keeping:)``, which writes the kept versions to
/// a pack of the next generation (`bases-N.pack`, named on the index's first line,
/// `pack bases-N.pack`) and switches to it by renaming the new index over the old: a
/// crash at any point leaves one whole generation in use.
package final class BaseStore {
    private let state: RootedFolder
    private var packName: String?
    private var pack: RootedPath { state[packName ?? currentPackName()] }
    private let index: RootedPath
    /// Hashes stored before this run (the archive's) and during it: gathered on the
    /// first store, since most syncs store nothing.
    private var stored: Set<SHA256.Digest> = []
    private var known: (() -> Set<SHA256.Digest>)?
    /// Versions stored and not yet written, in order, and their bytes in all.
    private var pending: [(hash: SHA256.Digest, bytes: [UInt8])] = []
    private var pendingBytes = 0
    private var packSize: Int64?
    private var offsets: [SHA256.Digest: Entry]?
    /// The places of some versions, read without the whole table (``locate(_:)``).
    private var located: [SHA256.Digest: Entry] = [:]
    /// The block last decompressed, by its offset: versions are read in runs from one block.
    private var lastBlock: (offset: Int64, bytes: [UInt8])?

    /// Where a version is in the pack: `length` bytes at `offset`, or at `start` in the
    /// block compressed into `block` bytes at `offset`.
    package struct Entry {
        var offset: Int64
        var length: Int
        var block: (length: Int, start: Int)?
    }

    /// The raw bytes of versions a block gathers at most (one larger version is a block alone).
    package static let blockSize = 32 << 10
    /// A flush that failed inside ``load(_:)``, which cannot throw: thrown by the next
    /// ``flush()``, so that the sync's record of its state hears of it.
    private var unreportedFailure: SystemError?

    /// The bases of the state folder `state`; `known` are the hashes already stored.
    package init(state: RootedFolder, known: @escaping @autoclosure () -> Set<SHA256.Digest>) {
        self.state = state
        index = state["bases.index"]
        self.known = known
    }

    /// The versions kept in `state` whose hashes only its index knows (a folder's own
    /// history, which no archive names): read from the index on first use.
    package convenience init(indexedIn state: RootedFolder) {
        self.init(state: state, known: [])
        known = { [unowned self] in
            // An index that cannot be read names nothing: a version stored again is only space, and compaction reports the index.
            (try? self.loadOffsets()).flatMap { self.offsets.map { Set($0.keys) } } ?? []
        }
    }

    /// From now on stores every version this run has not stored, without first
    /// gathering the hashes the pack holds (`known`): for a pass that stores a few
    /// versions, nearly all new, gathering 100,000 hashes cost more than its merges.
    /// A version the pack holds already is stored again: only space, which the next
    /// compaction gives back (it keeps one copy of each).
    package func storesWithoutGathering() {
        guard known != nil else { return }
        known = nil
    }

    /// The pack the index names on its first line (`bases.pack` for an index without one).
    private func currentPackName() -> String {
        var name = "bases.pack"
        // An index that cannot be read names the first pack: every base read from it is
        // checked against its hash (a wrong one is no base), and reading the offsets, which
        // compaction needs, reports the index's error.
        if let fd = try? index.open(for: .reading) {
            defer { Syscall.close(fd) }
            if let head = try? Syscall.read(fd, count: 64, at: 0, path: index.path), head.starts(with: Array("pack ".utf8)),
               let end = head.firstIndex(of: 10) {
                name = String(decoding: head[5..<end], as: UTF8.self)
            }
        }
        packName = name
        return name
    }

    /// The hashes of every version kept, as this run leaves them (for the next run of the
    /// same process, which then need not gather them again).
    package func hashes() -> Set<SHA256.Digest> {
        if let known {
            stored = known()
            self.known = nil
        }
        return stored
    }

    /// Whether the version with this hash is kept.
    package func contains(_ hash: SHA256.Digest) -> Bool {
        if let known {
            stored = known()
            self.known = nil
        }
        return stored.contains(hash)
    }

    /// Keeps `bytes` under its hash `hash`, unless it is already kept.
    package func store(_ bytes: [UInt8], hash: SHA256.Digest) throws(SystemError) {
        if let known {
            // Not a lazy property: inserting into one copied the whole set each time.
            stored = known()
            self.known = nil
        }
        guard !stored.contains(hash) else { return }
        pending.append((hash, bytes))
        pendingBytes += bytes.count
        stored.insert(hash)
        if pendingBytes >= 4 << 20 { try flush() }
    }

    /// `versions` as a pack's bytes starting at `start` in it, in blocks (see the type's
    /// comment), with their index lines and entries.
    package static func packed(_ versions: [(hash: SHA256.Digest, bytes: [UInt8])], at start: Int64) -> (pack: [UInt8], index: [UInt8], entries: [(SHA256.Digest, Entry)]) {
        var pack: [UInt8] = [], index: [UInt8] = [], entries: [(SHA256.Digest, Entry)] = []
        var first = 0
        while first < versions.count {
            var end = first, raw: [UInt8] = []
            while end < versions.count && (raw.isEmpty || raw.count + versions[end].bytes.count <= blockSize) {
                raw += versions[end].bytes
                end += 1
            }
            let offset = start + Int64(pack.count)
            let compressed = BlockCompression.compress(raw)
            // Compressed only where it saves something worth a block's decompression.
            let asBlock = compressed.count < raw.count - raw.count / 8
            var within = 0
            if asBlock { index += Array("block \(offset) \(compressed.count)\n".utf8) }
            for (hash, bytes) in versions[first..<end] {
                let entry = asBlock ? Entry(offset: offset, length: bytes.count, block: (compressed.count, within))
                                    : Entry(offset: offset + Int64(within), length: bytes.count)
                hash.appendBase64(to: &index)
                index += Array((asBlock ? " \(bytes.count)\n" : " \(entry.offset) \(bytes.count)\n").utf8)
                entries.append((hash, entry))
                within += bytes.count
            }
            pack += asBlock ? compressed : raw
            first = end
        }
        return (pack, index, entries)
    }

    /// Writes what ``store(_:)`` gathered; `durably`: flushed to the disk (the pack, the
    /// index, and the folder when they are new), else the caller flushes the file system
    /// later. Whether it appended anything.
    @discardableResult
    package func flush(durably: Bool = false) throws(SystemError) -> Bool {
        if let failure = unreportedFailure {
            unreportedFailure = nil
            throw failure
        }
        guard !pending.isEmpty else { return false }
        // A pack that cannot be looked at is taken as empty: the append below reports the disk.
        if packSize == nil { packSize = (try? FileStamp.of(pack))?.size ?? 0 }
        let written = Self.packed(pending, at: packSize!)
        do {
            for (path, bytes) in [(pack, written.pack), (index, written.index)] {
                try AtomicFile.append(bytes, to: path, flushing: durably)
            }
            // New files' names reach the disk with their folder.
            if durably && packSize == 0 { try state.root.syncDirectory() }
        } catch {
            // The pack's size is no longer known: drop what is pending (those versions are
            // stored again when next recorded) and read the size afresh.
            packSize = nil
            offsets = nil
            for (hash, _) in pending { stored.remove(hash) }
            (pending, pendingBytes) = ([], 0)
            throw error
        }
        for (hash, entry) in written.entries { offsets?[hash] = entry }
        packSize! += Int64(written.pack.count)
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
        return true
    }

    /// The version with this hash, checked against it; nil when it was never kept.
    package func load(_ hash: SHA256.Digest) -> [UInt8]? {
        do { try flush() } catch { unreportedFailure = error }
        // A base that cannot be read is no base: the merge keeps both versions (a conflict,
        // reported as one) and nothing is lost; compaction, which would drop it, throws instead.
        guard let entry = located[hash] ?? ((try? loadOffsets()) != nil ? offsets?[hash] : nil), let fd = try? pack.open(for: .reading) else { return nil }
        defer { Syscall.close(fd) }
        // A base that cannot be read (or no longer hashes to itself) is no base, as above.
        guard let bytes = try? read(entry, from: fd, path: pack), SHA256.hash(bytes) == hash else { return nil }
        return bytes
    }

    /// The bytes `entry` places in the pack open as `fd` (at `path`); nil when its block
    /// does not decompress to hold them.
    private func read(_ entry: Entry, from fd: Int32, path: RootedPath) throws(SystemError) -> [UInt8]? {
        guard let block = entry.block else { return try Syscall.read(fd, count: entry.length, at: entry.offset, path: path.path) }
        let raw: [UInt8]
        if let last = lastBlock, last.offset == entry.offset {
            raw = last.bytes
        } else {
            guard let decompressed = BlockCompression.decompress(try Syscall.read(fd, count: block.length, at: entry.offset, path: path.path), limit: Self.blockSize + block.start + entry.length) else { return nil }
            raw = decompressed
            lastBlock = (entry.offset, raw)
        }
        guard block.start + entry.length <= raw.count else { return nil }
        return Array(raw[block.start..<block.start + entry.length])
    }

    /// Rewrites the store with only the versions in `keep` (those it holds), as the next
    /// generation: the new pack and index are written and flushed under new names, then
    /// the index is renamed over the old one (the switch), then the old pack removed.
    package func compact(keeping keep: Set<SHA256.Digest>) throws(SystemError) {
        try flush()
        // An index or pack that cannot be read stops the compaction: the new generation
        // would hold none of the bases, and the old would be removed.
        try loadOffsets()
        let old = pack
        let generation = (Int(packName?.dropFirst("bases-".count).dropLast(".pack".count) ?? "") ?? 0) + 1
        let newName = "bases-\(generation).pack"
        var versions: [(hash: SHA256.Digest, bytes: [UInt8])] = []
        let fd: Int32?
        do { fd = try old.open(for: .reading) } catch where error.code == Syscall.noSuchFile { fd = nil }
        if let fd {
            defer { Syscall.close(fd) }
            let inOrder = (offsets ?? [:]).sorted { ($0.value.offset, $0.value.block?.start ?? 0) < ($1.value.offset, $1.value.block?.start ?? 0) }
            for (hash, entry) in inOrder where keep.contains(hash) {
                // A damaged record (its bytes no longer hash to it, its block no longer decompresses) is no base: dropped.
                guard let bytes = try read(entry, from: fd, path: old), SHA256.hash(bytes) == hash else { continue }
                versions.append((hash, bytes))
            }
        }
        lastBlock = nil
        let written = Self.packed(versions, at: 0)
        _ = try AtomicFile.write(written.pack, to: state[newName], mode: 0o600, replacingOnly: nil)
        _ = try AtomicFile.write(Array("pack \(newName)\n".utf8) + written.index, to: index, mode: 0o600, replacingOnly: nil)
        // The switch is made: an old pack left behind is only unused space, and its name is
        // never read again.
        if old.relative != state[newName].relative { try? AtomicFile.remove(old) }
        packName = newName
        packSize = Int64(written.pack.count)
        offsets = Dictionary(written.entries, uniquingKeysWith: { first, _ in first })
        located = [:]
        stored = Set(offsets!.keys)
        known = nil
    }

    /// Where the versions `hashes` are, read from the index into a table of their own:
    /// a sync that merges a few files needs a few bases, and a table of every offset
    /// (``loadOffsets()``) was a tenth of such a sync at 100,000 files. A hash not in the
    /// index is looked for in the whole table at its load. Best effort: an index that
    /// cannot be read now is read (and reported) when a version is loaded.
    package func locate(_ hashes: Set<SHA256.Digest>) {
        guard offsets == nil, !hashes.isEmpty, let table = try? readOffsets(only: hashes) else { return }
        located.merge(table) { _, new in new }
    }

    /// Reads the index, once; throws when it is there but cannot be read.
    private func loadOffsets() throws(SystemError) {
        if offsets == nil { offsets = try readOffsets(only: nil) }
    }

    /// The first eight bytes of `text` as one word (`text` has at least eight).
    private static func prefix<Bytes: RandomAccessCollection<UInt8>>(_ text: Bytes) -> UInt64 {
        text.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The fields of an index line (split at spaces, empty ones dropped): at most three
    /// are read, and a line with more counts as having four. Not `split`, which made an
    /// array for each of 100,000 lines.
    private static func fields(of line: Slice<UnsafeBufferPointer<UInt8>>) -> IndexLineFields {
        var fields = IndexLineFields()
        var index = line.startIndex
        while index < line.endIndex {
            while index < line.endIndex && line[index] == 32 { index += 1 }
            guard index < line.endIndex else { break }
            let start = index
            while index < line.endIndex && line[index] != 32 { index += 1 }
            fields.append(line[start..<index])
        }
        return fields
    }

    /// Up to three fields of a line, and how many it has (four: more than three).
    private struct IndexLineFields {
        private var ranges: (Slice<UnsafeBufferPointer<UInt8>>?, Slice<UnsafeBufferPointer<UInt8>>?, Slice<UnsafeBufferPointer<UInt8>>?) = (nil, nil, nil)
        private(set) var count = 0

        mutating func append(_ field: Slice<UnsafeBufferPointer<UInt8>>) {
            switch count {
            case 0: ranges.0 = field
            case 1: ranges.1 = field
            case 2: ranges.2 = field
            default: break
            }
            count = min(count + 1, 4)
        }

        subscript(position: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
            switch position {
            case 0: ranges.0!
            case 1: ranges.1!
            default: ranges.2!
            }
        }
    }

    /// The places the index gives: of the versions in `only`, or of all (nil).
    private func readOffsets(only wanted: Set<SHA256.Digest>?) throws(SystemError) -> [SHA256.Digest: Entry] {
        var table: [SHA256.Digest: Entry] = [:]
        let text = try AtomicFile.contentsIfPresent(index) ?? []
        // The first eight characters of each wanted hash as the index may spell it (hex
        // or base64url): a line that starts otherwise is not decoded, only measured.
        let prefixes = wanted.map { wanted in
            Set(wanted.flatMap { digest -> [UInt64] in
                var base64: [UInt8] = []
                digest.appendBase64(to: &base64)
                return [Self.prefix(base64[...]), Self.prefix(Array(digest.description.utf8)[...])]
            })
        }
        // Over the bytes, as the archive is read: an index has a line per version.
        text.withUnsafeBufferPointer { buffer in
            var start = 0
            // The compressed block the lines read are in, and where the next version starts in it.
            var block: (offset: Int64, length: Int, next: Int)?
            while start < buffer.count {
                var end = start
                while end < buffer.count && buffer[end] != 10 { end += 1 }
                // A last line with no end is one an append was cut short in: nothing.
                guard end < buffer.count else { break }
                let line = buffer[start..<end]
                start = end + 1
                let fields = Self.fields(of: line)
                if fields.count == 2 && fields[0].elementsEqual("pack".utf8) {
                    packName = String(decoding: UnsafeBufferPointer(rebasing: fields[1]), as: UTF8.self)
                    continue
                }
                if fields.count == 3 && fields[0].elementsEqual("block".utf8) {
                    block = LineFields.integer(fields[1]).flatMap { offset in LineFields.integer(fields[2]).map { (offset, Int($0), 0) } }
                    continue
                }
                // A line that does not read (one cut short, joined to the next append) ends
                // the block: what follows it is not placed by a guess (stored again instead).
                let hash = UnsafeBufferPointer(rebasing: fields.count > 0 ? fields[0] : line)
                if let prefixes, hash.count >= 8, !prefixes.contains(Self.prefix(hash[...])) {
                    // Not one wanted: only where the next version of its block starts.
                    if fields.count == 2, block != nil, let length = LineFields.integer(fields[1]) {
                        block?.next += Int(length)
                        continue
                    }
                    block = nil
                    continue
                }
                if let digest = SHA256.Digest(hex: hash) ?? SHA256.Digest(base64: hash) {
                    let isWanted = wanted?.contains(digest) ?? true
                    if fields.count == 2, let current = block, let length = LineFields.integer(fields[1]) {
                        if isWanted { table[digest] = Entry(offset: current.offset, length: Int(length), block: (current.length, current.next)) }
                        block?.next += Int(length)
                        continue
                    }
                    if fields.count == 3, let offset = LineFields.integer(fields[1]), let length = LineFields.integer(fields[2]) {
                        if isWanted { table[digest] = Entry(offset: offset, length: Int(length)) }
                    }
                }
                block = nil
            }
        }
        return table
    }
}
