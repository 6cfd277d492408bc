import FolioSystem

/// The last state both replicas agreed on, per path: the content hash, each
/// replica's stamp when it was recorded (so that an unchanged stamp means an unchanged
/// file and no re-read), and the executable bit. The content of text files is kept
/// beside it (``BlobStore``) as the base of later merges.
public struct SyncArchive: Sendable, Equatable {
    /// What both replicas held at one path.
    public struct Entry: Sendable, Equatable {
        public var hash: SHA256.Digest
        public var size: Int64
        public var executable: Bool
        /// The stamps in replica A and B when this was recorded.
        public var stampA: FileStamp?
        public var stampB: FileStamp?
        /// The document's front-matter `id`, which follows it through a rename and edit.
        public var id: String? = nil
    }

    /// The entries by path (relative, `/`-separated).
    public var entries: [String: Entry] = [:]

    /// An empty archive: the replicas have never been synced.
    public init() {}

    static let header = "folio-archive 1"

    /// The archive as text: a header line, then one line per path, sorted, with the
    /// hash, size, executable bit, both stamps, the path (percent-escaped) and, for a
    /// document that has one, its front-matter `id`.
    public func serialized() -> [UInt8] {
        var out = Array((Self.header + "\n").utf8)
        out.reserveCapacity(entries.count * 160)
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            out += Array(entry.hash.description.utf8)
            out += Array("\t\(entry.size)\t\(entry.executable ? "x" : "-")\t\(Self.stamp(entry.stampA))\t\(Self.stamp(entry.stampB))\t".utf8)
            out += Array(Self.escaped(path).utf8)
            if let id = entry.id {
                out.append(9)
                out += Array(Self.escaped(id).utf8)
            }
            out.append(10)
        }
        return out
    }

    /// Reads what ``serialized()`` wrote (over bytes: an archive has a line per file).
    public init(serialized bytes: [UInt8]) throws(SyncError) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: true)[...]
        guard let first = lines.popFirst(), Array(first) == Array(Self.header.utf8) else {
            throw SyncError("the archive does not start with '\(Self.header)'")
        }
        entries.reserveCapacity(lines.count)
        for (number, line) in lines.enumerated() {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false)
            guard fields.count == 6 || fields.count == 7, let hash = SHA256.Digest(hex: String(decoding: fields[0], as: UTF8.self)),
                  let size = Self.integer(fields[1]), let a = Self.stamp(fields[3]), let b = Self.stamp(fields[4]),
                  let path = Self.unescaped(String(decoding: fields[5], as: UTF8.self))
            else { throw SyncError("archive line \(number + 2) is damaged") }
            let id = fields.count == 7 ? Self.unescaped(String(decoding: fields[6], as: UTF8.self)) : nil
            entries[path] = Entry(hash: hash, size: size, executable: fields[2].first == UInt8(ascii: "x"), stampA: a, stampB: b, id: id)
        }
    }

    /// A decimal integer (optionally negative) from bytes.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        var digits = bytes
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        for byte in digits {
            guard byte >= 48 && byte <= 57 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 48))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    static func stamp(_ stamp: FileStamp?) -> String {
        guard let stamp else { return "-" }
        return "\(stamp.size),\(stamp.modified),\(stamp.changed),\(Int64(bitPattern: stamp.inode)),\(stamp.permissions)"
    }

    /// A stamp field: `.some(nil)` for "-", nil when damaged.
    static func stamp(_ bytes: ArraySlice<UInt8>) -> FileStamp?? {
        if bytes.count == 1 && bytes.first == UInt8(ascii: "-") { return .some(nil) }
        let parts = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard parts.count == 5, let size = integer(parts[0]), let modified = integer(parts[1]), let changed = integer(parts[2]),
              let inode = integer(parts[3]), let permissions = integer(parts[4])
        else { return nil }
        return .some(FileStamp(
            size: size, modified: modified, changed: changed, inode: UInt64(bitPattern: inode), type: .regular,
            permissions: UInt32(truncatingIfNeeded: permissions)))
    }

    /// The path with `%`, tab, line feed and carriage return written `%25`, `%09`, `%0A`, `%0D`.
    static func escaped(_ path: String) -> String {
        var out: [UInt8] = []
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == 9 || byte == 10 || byte == 13 {
                out += Array("%".utf8) + Array((byte < 16 ? "0" : "").utf8) + Array(String(byte, radix: 16, uppercase: true).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unescaped(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why a sync stopped or could not do something, in words a person can act on.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
