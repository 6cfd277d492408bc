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
        out.reserveCapacity(entries.count * 200)
        // Byte by byte, not by string interpolation: a first sync writes a line per file.
        func number(_ value: Int64) {
            if value < 0 { out.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            var digits: [UInt8] = []
            repeat {
                digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: digits.reversed())
        }
        func stamp(_ stamp: FileStamp?) {
            guard let stamp else { return out.append(UInt8(ascii: "-")) }
            for (index, value) in [stamp.size, stamp.modified, stamp.changed, Int64(bitPattern: stamp.inode), Int64(stamp.permissions)].enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                number(value)
            }
        }
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            entry.hash.appendHex(to: &out)
            out.append(9)
            number(entry.size)
            out += [9, entry.executable ? UInt8(ascii: "x") : UInt8(ascii: "-"), 9]
            stamp(entry.stampA)
            out.append(9)
            stamp(entry.stampB)
            out.append(9)
            Self.appendEscaped(path, to: &out)
            if let id = entry.id {
                out.append(9)
                Self.appendEscaped(id, to: &out)
            }
            out.append(10)
        }
        return out
    }

    /// Reads what ``serialized()`` wrote. By hand over the bytes, field by field: an
    /// archive has a line per file, and reading it is most of a sync that finds nothing
    /// changed.
    public init(serialized bytes: [UInt8]) throws(SyncError) {
        let header = Array((Self.header + "\n").utf8)
        guard bytes.starts(with: header) else { throw SyncError("the archive does not start with '\(Self.header)'") }
        var entries: [String: Entry] = [:]
        let damaged: Int? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(buffer: buffer, at: header.count)
            entries.reserveCapacity(buffer.count / 150)
            var line = 1
            while !cursor.atEnd {
                line += 1
                guard cursor.startLine() else { continue }
                guard let hash = cursor.field().flatMap({ SHA256.Digest(hex: UnsafeBufferPointer(rebasing: $0)) }),
                      let size = cursor.field().flatMap({ Self.integer($0) }),
                      let executable = cursor.field().map({ $0.first == UInt8(ascii: "x") }),
                      let a = cursor.field().flatMap({ Self.stamp($0) }), let b = cursor.field().flatMap({ Self.stamp($0) }),
                      let path = cursor.field().flatMap({ Self.unescaped($0) })
                else { return line }
                var id: String?
                if cursor.lineGoesOn {
                    guard let text = cursor.field().flatMap({ Self.unescaped($0) }), !cursor.lineGoesOn else { return line }
                    id = text
                }
                entries[path] = Entry(hash: hash, size: size, executable: executable, stampA: a, stampB: b, id: id)
            }
            return nil
        }
        if let damaged { throw SyncError("archive line \(damaged) is damaged") }
        self.entries = entries
    }

    /// Walks an archive's bytes one tab- or line-ended field at a time.
    private struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var position: Int
        /// Whether the current line has another field: it has just begun, or its last
        /// field ended with a tab.
        var lineGoesOn = true

        init(buffer: UnsafeBufferPointer<UInt8>, at position: Int) {
            (self.buffer, self.position) = (buffer, position)
        }

        var atEnd: Bool { position >= buffer.count }

        /// Starts the next line; false (and skipped) when it is empty.
        mutating func startLine() -> Bool {
            lineGoesOn = true
            guard buffer[position] == 10 else { return true }
            position += 1
            return false
        }

        /// The next field of the line, or nil when the line has ended.
        mutating func field() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard lineGoesOn else { return nil }
            let start = position
            while position < buffer.count && buffer[position] != 9 && buffer[position] != 10 { position += 1 }
            let field = buffer[start..<position]
            lineGoesOn = position < buffer.count && buffer[position] == 9
            if position < buffer.count { position += 1 }
            return field
        }
    }

    /// A decimal integer (optionally negative) from bytes.
    static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int64? {
        var value: Int64 = 0
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = bytes.dropFirst(negative ? 1 : 0)
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

    /// A stamp field: `.some(nil)` for "-", nil when damaged.
    static func stamp<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> FileStamp?? {
        if bytes.count == 1 && bytes.first == UInt8(ascii: "-") { return .some(nil) }
        var numbers: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        var rest = bytes[...]
        for index in 0..<5 {
            let comma = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
            guard (comma == rest.endIndex) == (index == 4), let number = integer(rest[..<comma]) else { return nil }
            switch index {
            case 0: numbers.0 = number
            case 1: numbers.1 = number
            case 2: numbers.2 = number
            case 3: numbers.3 = number
            default: numbers.4 = number
            }
            rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
        }
        return .some(FileStamp(
            size: numbers.0, modified: numbers.1, changed: numbers.2, inode: UInt64(bitPattern: numbers.3), type: .regular,
            permissions: UInt32(truncatingIfNeeded: numbers.4)))
    }

    /// The path with `%`, tab, line feed and carriage return written `%25`, `%09`, `%0A`, `%0D`.
    static func escaped(_ path: String) -> String {
        var out: [UInt8] = []
        appendEscaped(path, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendEscaped(_ path: String, to out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == 9 || byte == 10 || byte == 13 {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
    }

    static func unescaped(_ text: String) -> String? { unescaped(Array(text.utf8)[...]) }

    static func unescaped<Bytes: Collection<UInt8>>(_ text: Bytes) -> String? {
        guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        var utf8 = text[...]
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
