import FolioSystem
import FolioVersions

/// The file `STATE/stamps`: every archived path with its stamps in both replicas, laid
/// out as an open-addressing table that is searched where it lies, with no parsing.
/// It lets a one-off sync that finds nothing changed answer without reading the
/// archive (``SyncEngine/quickLook(memory:)``): the archive is text, and reading it
/// into a table was most of such a sync.
///
/// It is derived data, written after the archive and never trusted on its own: its
/// header names what it was made from (the archive files' stamps, both rule files, the
/// replicas' paths), and anything else found there — or a length, a checksum or an
/// offset that does not hold — makes it no index at all, and the sync reads the
/// archive as before.
///
/// Layout: the magic line; the validity digest (32 bytes); then little-endian words:
/// the archive's file count, the number of records, the table's slot count (a power
/// of two), the records' length and the checksum of what follows the header; the
/// table (`UInt32` per slot: a record's number plus one, 0 when empty); each record's
/// offset (`UInt32`, by number); the records, each `flags (1 byte), path length (2),
/// path, stamp A, stamp B` — the stamps (``stampSize`` bytes each) only for a file
/// whose flags say it has them.
///
/// The records of one folder's entries lie together, numbered in a row: a look goes
/// folder by folder, and a record anywhere in 14 MB (100,000 files) was a cache and
/// TLB miss per file — with the flag a look sets per record, three quarters of the
/// look's own time. (Version 1 kept them in the archive's hash order.)
struct StampIndex: Equatable {
    static let fileName = "stamps"
    static let magic = Array("folio-stamps 2\n".utf8)
    static let stampSize = 40
    static let folderFlag: UInt8 = 1, stampAFlag: UInt8 = 2, stampBFlag: UInt8 = 4
    private static let headerSize = magic.count + 32 + 5 * 8

    /// What an entry records.
    enum Entry: Equatable {
        case folder
        /// A file, with its stamps (nil: not recorded in that replica, so it is read
        /// again when next looked at).
        case file(a: FileStamp?, b: FileStamp?)
    }

    /// The digest an index must carry to describe the archive files with `stamps`, the
    /// rule files `rules` and the replicas at `roots`.
    static func validity(archiveStamps stamps: [FileStamp?], rules: PerReplica<String>, roots: PerReplica<String>) -> SHA256.Digest {
        var text = ""
        for stamp in stamps {
            text += stamp.map { "\($0.size),\($0.modified),\($0.changed),\($0.inode),\($0.permissions);" } ?? "-;"
        }
        for part in [rules.a, rules.b, roots.a, roots.b] { text += "\(part.utf8.count):" + part }
        return SHA256.hash(Array(text.utf8))
    }

    /// The index of `archive`'s entries that `including` keeps, as written to disk.
    static func serialized(_ archive: SyncArchive, validity: SHA256.Digest, including: (SyncPath) -> Bool) -> [UInt8] {
        Body(archive, including: including).file(validity: validity)
    }

    /// An index's table and records, made before the archive's files are written (the
    /// validity, which names their stamps, goes in the header after): the sync makes
    /// it on another thread while the disk is flushed.
    struct Body: Sendable {
        var files = 0
        var count = 0
        var slots = 16
        var table: [UInt32] = []
        var offsets: [UInt32] = []
        var records: [UInt8] = []

        /// The entries of `archive` that `including` keeps.
        init(_ archive: SyncArchive, including: (SyncPath) -> Bool) {
            // The entries kept, grouped by the folder they are in (by its hash: entries of
            // two folders sharing one would only lie together).
            var kept: [(folder: UInt64, hash: UInt64, at: Dictionary<SyncPath, SyncArchive.Entry>.Index)] = []
            kept.reserveCapacity(archive.entries.count)
            var at = archive.entries.startIndex
            while at != archive.entries.endIndex {
                defer { at = archive.entries.index(after: at) }
                let path = archive.entries.keys[at]
                var key = path.key
                let (isFolder, length, hash, folder) = key.withUTF8 { bytes in
                    let isFolder = bytes.last == UInt8(ascii: "/")
                    let parentEnd = bytes[..<(isFolder ? bytes.count - 1 : bytes.count)].lastIndex(of: UInt8(ascii: "/")) ?? -1
                    return (isFolder, bytes.count, StampIndex.hash(bytes), StampIndex.hash(bytes[..<(parentEnd + 1)]))
                }
                if !isFolder { files += 1 }
                guard including(path), length <= Int(UInt16.max) else { continue }
                kept.append((folder, hash, at))
            }
            kept.sort { $0.folder < $1.folder }
            records.reserveCapacity(kept.count * 128)
            offsets.reserveCapacity(kept.count)
            for (_, _, at) in kept {
                let (path, entry) = archive.entries[at]
                offsets.append(UInt32(records.count))
                Self.appendRecord(path, entry, to: &records)
            }
            count = kept.count
            while slots < count * 2 { slots *= 2 }
            table = [UInt32](repeating: 0, count: slots)
            for (number, (_, hash, _)) in kept.enumerated() { place(number, hash: hash) }
        }

        /// Appends the record of `entry` at `path`.
        static func appendRecord(_ path: SyncPath, _ entry: SyncArchive.Entry, to records: inout [UInt8]) {
            var key = path.key
            let isFolder = key.utf8.last == UInt8(ascii: "/")
            records.append(recordFlags(isFolder: isFolder, entry))
            appendWord(UInt64(key.utf8.count), bytes: 2, to: &records)
            key.withUTF8 { records.append(contentsOf: $0) }
            if !isFolder {
                if let stamp = entry.stampA { appendStamp(stamp, to: &records) }
                if let stamp = entry.stampB { appendStamp(stamp, to: &records) }
            }
        }

        /// A record's flags: a folder, or a file and which stamps it has.
        static func recordFlags(isFolder: Bool, _ entry: SyncArchive.Entry) -> UInt8 {
            guard !isFolder else { return folderFlag }
            return (entry.stampA != nil ? stampAFlag : 0) | (entry.stampB != nil ? stampBFlag : 0)
        }

        /// The index file: header, table and records in one buffer of its final size, the
        /// header's checksum filled in last (at 100,000 files it is 14 MB, and copies of
        /// it and the page faults of each new buffer were most of its cost).
        func file(validity: SHA256.Digest) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(headerSize + slots * 4 + count * 4 + records.count)
            out += magic
            out += validity.bytes
            for word in [UInt64(files), UInt64(count), UInt64(slots), UInt64(records.count), 0] { appendWord(word, bytes: 8, to: &out) }
            for slot in table { appendWord(UInt64(slot), bytes: 4, to: &out) }
            for offset in offsets { appendWord(UInt64(offset), bytes: 4, to: &out) }
            out += records
            let sum = checksum(out[headerSize...])
            for index in 0..<8 { out[headerSize - 8 + index] = UInt8(truncatingIfNeeded: sum >> UInt64(8 * index)) }
            return out
        }
    }

    /// The bytes of an index file; nil when they are not one made for `validity`.
    let bytes: [UInt8]
    /// How many files the archive held (those left out of the index too).
    let archivedFiles: Int
    /// How many entries the index holds.
    let count: Int
    /// The table's slot count, and where the table, the records' offsets and the records
    /// start in ``bytes`` (a patch copies them: ``Body/init(patching:setting:files:including:)``).
    let slots: Int
    let tableStart: Int
    let offsetsStart: Int
    let recordsStart: Int

    init?(bytes: [UInt8], validity: SHA256.Digest) {
        let header = Self.headerSize
        guard bytes.count >= header, bytes.starts(with: Self.magic),
              bytes[Self.magic.count..<(Self.magic.count + 32)].elementsEqual(validity.bytes)
        else { return nil }
        func word(_ index: Int) -> UInt64 { Self.word(bytes, at: Self.magic.count + 32 + index * 8, bytes: 8) }
        let (files, count, slots, recordsLength, sum) = (word(0), word(1), word(2), word(3), word(4))
        guard slots >= 16, slots.nonzeroBitCount == 1, count <= slots / 2, slots <= UInt64(Int32.max), recordsLength <= UInt64(Int32.max),
              UInt64(bytes.count) == UInt64(header) + slots * 4 + count * 4 + recordsLength,
              Self.checksum(bytes[header...]) == sum
        else { return nil }
        self.bytes = bytes
        (archivedFiles, self.count, self.slots) = (Int(files), Int(count), Int(slots))
        tableStart = header
        offsetsStart = header + Int(slots) * 4
        recordsStart = offsetsStart + Int(count) * 4
    }

    /// Where record `number` starts in ``bytes``; nil when the number or the offset is
    /// out of bounds.
    private func recordStart(_ number: Int, in raw: UnsafeRawBufferPointer) -> Int? {
        guard number >= 0, number < count else { return nil }
        let at = recordsStart + Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offsetsStart + number * 4, as: UInt32.self)))
        return at + 3 <= raw.count ? at : nil
    }

    /// What the index records for the path whose archive spelling is `key`, and the
    /// record's number (below ``count``), so that a caller can mark the entries it found
    /// and ask for the others (``keys(notMarkedIn:)``); nil when it has no such entry, or
    /// the entry is malformed.
    func lookUp(_ key: UnsafeBufferPointer<UInt8>) -> (entry: Entry, number: Int)? {
        bytes.withUnsafeBytes { raw in
            func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T { T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self)) }
            var slot = Int(truncatingIfNeeded: Self.hash(key)) & (slots - 1)
            for _ in 0..<slots {
                let number = Int(load(tableStart + slot * 4, as: UInt32.self)) - 1
                guard number >= 0 else { return nil }
                guard let at = recordStart(number, in: raw) else { return nil }
                let flags = raw[at], length = Int(load(at + 1, as: UInt16.self)), path = at + 3
                guard path + length <= raw.count else { return nil }
                if length == key.count && Self.equalBytes(UnsafeRawBufferPointer(rebasing: raw[path..<(path + length)]), UnsafeRawBufferPointer(key)) {
                    if flags & Self.folderFlag != 0 { return (.folder, number) }
                    var next = path + length
                    func stamp(_ present: Bool) -> FileStamp?? {
                        guard present else { return .some(nil) }
                        guard next + Self.stampSize <= raw.count else { return nil }
                        defer { next += Self.stampSize }
                        return FileStamp(
                            size: load(next, as: Int64.self), modified: load(next + 8, as: Int64.self), changed: load(next + 16, as: Int64.self),
                            inode: load(next + 24, as: UInt64.self), type: .regular, permissions: UInt32(truncatingIfNeeded: load(next + 32, as: UInt64.self)))
                    }
                    guard let a = stamp(flags & Self.stampAFlag != 0), let b = stamp(flags & Self.stampBFlag != 0) else { return nil }
                    return (.file(a: a, b: b), number)
                }
                slot = (slot + 1) & (slots - 1)
            }
            return nil
        }
    }

    /// The archive spellings of the entries `marked` leaves false (one flag per record,
    /// by number); nil when a record is malformed.
    func keys(notMarkedIn marked: [Bool]) -> [String]? {
        bytes.withUnsafeBytes { raw -> [String]? in
            var keys: [String] = []
            for number in 0..<count where !marked[number] {
                guard let at = recordStart(number, in: raw) else { return nil }
                let length = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at + 1, as: UInt16.self)))
                guard at + 3 + length <= raw.count else { return nil }
                keys.append(String(decoding: UnsafeRawBufferPointer(rebasing: raw[(at + 3)..<(at + 3 + length)]), as: UTF8.self))
            }
            return keys
        }
    }

    /// Whether `a` and `b` (of one length) hold the same bytes, compared a word at a time.
    private static func equalBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= a.count {
            guard a.loadUnaligned(fromByteOffset: index, as: UInt64.self) == b.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
            index += 8
        }
        while index < a.count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }

    /// FNV-1a over the path's bytes: a table probe per path of a replica must cost
    /// little, and the table is rebuilt with each write, so no adversary picks the keys.
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// A checksum of the body, word by word: a write cut short or damaged (the file
    /// is written without a flush of its own) does not pass it.
    static func checksum(_ body: ArraySlice<UInt8>) -> UInt64 {
        body.withUnsafeBytes { raw in
            var sum: UInt64 = UInt64(raw.count)
            var index = 0
            while index + 8 <= raw.count {
                sum = (sum &+ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                index += 8
            }
            while index < raw.count {
                sum = (sum &+ UInt64(raw[index])) &* 0x9E37_79B9_7F4A_7C15
                index += 1
            }
            return sum
        }
    }

    /// A stamp's five words (``stampSize`` bytes), as ``lookUp(_:)`` reads them.
    static func appendStamp(_ stamp: FileStamp, to out: inout [UInt8]) {
        appendWord(UInt64(bitPattern: stamp.size), bytes: 8, to: &out)
        appendWord(UInt64(bitPattern: stamp.modified), bytes: 8, to: &out)
        appendWord(UInt64(bitPattern: stamp.changed), bytes: 8, to: &out)
        appendWord(stamp.inode, bytes: 8, to: &out)
        appendWord(UInt64(stamp.permissions), bytes: 8, to: &out)
    }

    static func appendWord(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0.prefix(bytes)) }
    }

    private static func word<Bytes: RandomAccessCollection<UInt8>>(_ buffer: Bytes, at offset: Int, bytes: Int) -> UInt64 where Bytes.Index == Int {
        var value: UInt64 = 0
        for index in 0..<bytes { value |= UInt64(buffer[offset + index]) << UInt64(8 * index) }
        return value
    }
}
