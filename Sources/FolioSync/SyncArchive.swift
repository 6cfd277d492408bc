import FolioSystem
import FolioVersions

/// The last state both replicas agreed on, per path: the content hash, each
/// replica's stamp when it was recorded (so that an unchanged stamp means an unchanged
/// file and no re-read), and the executable bit. The content of text files is kept
/// beside it (``BaseStore``) as the base of later merges.
package struct SyncArchive: Sendable, Equatable {
    /// What both replicas held at one path.
    package struct Entry: Sendable, Equatable {
        package var hash: SHA256.Digest
        package var size: Int64
        package var executable: Bool
        /// The stamps in replica A and B when this was recorded.
        package var stampA: FileStamp?
        package var stampB: FileStamp?
        /// The stamp recorded for `replica`.
        package func stamp(in replica: Replica) -> FileStamp? { replica == .a ? stampA : stampB }
        /// Records `stamp` for `replica`.
        package mutating func setStamp(_ stamp: FileStamp?, in replica: Replica) {
            if replica == .a { stampA = stamp } else { stampB = stamp }
        }
        /// The document's front-matter `id`, which follows it through a rename and edit.
        package var id: String? = nil
    }

    /// The entries by path (files and folders).
    package var entries: [SyncPath: Entry] = [:]

    /// Every path relative, `/`-separated, without empty, `.` or `..` parts; a folder's
    /// path ends in `/`; no file is recorded where another entry needs a folder. Checked
    /// in debug builds after each phase of a sync that changes the archive (within a
    /// phase, a file and a folder trading places pass through states that break it).
    package func _checkInvariants() {
        #if DEBUG
        for path in entries.keys {
            let trimmed = path.relative
            let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            precondition(!trimmed.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }, "archive path '\(path)' is not a clean relative path")
            for depth in 1..<max(parts.count, 1) {
                let ancestor = parts[..<depth].joined(separator: "/")
                precondition(entries[SyncPath(file: ancestor)] == nil, "archive records '\(ancestor)' as a file, yet '\(path)' is inside it")
            }
        }
        #endif
    }

    /// An empty archive: the replicas have never been synced.
    package init() {}

    /// An archive written before folders were entries of their own holds files only: the
    /// folders those files were in existed on both sides then, so they are added as
    /// entries (else a folder one side deleted since would look new on the other and
    /// come back, empty). Saved with the next change.
    mutating func addFolderEntriesIfMissing() {
        guard !entries.isEmpty, !entries.keys.contains(where: \.isFolder) else { return }
        for path in Array(entries.keys) {
            for folder in path.ancestors where entries[folder] == nil {
                entries[folder] = Entry(hash: .folder, size: 0, executable: false, stampA: .folder, stampB: .folder)
            }
        }
    }

    static let header = "folio-archive 1"

    /// The archive as text: a header line, then one line per path, sorted, with the
    /// hash, size, executable bit, both stamps, the path (percent-escaped) and, for a
    /// document that has one, its front-matter `id`. The header may carry the
    /// generation of the snapshot (``ArchiveStorage``).
    package func serialized(generation: Int = 0) -> [UInt8] {
        var out = Array((Self.header + (generation == 0 ? "" : " \(generation)") + "\n").utf8)
        out.reserveCapacity(entries.count * 200)
        // The paths sorted, not the pairs: an entry is ten times a path's size to move.
        for path in entries.keys.sorted() { Self.appendLine(path, entries[path]!, to: &out) }
        return out
    }

    /// Appends an entry's line. Byte by byte, not by string interpolation: a first sync
    /// writes a line per file.
    static func appendLine(_ path: SyncPath, _ entry: Entry, to out: inout [UInt8]) {
        func stamp(_ stamp: FileStamp?) {
            guard let stamp else { return out.append(UInt8(ascii: "-")) }
            LineFields.appendDecimal(stamp.size, to: &out)
            func field(_ value: Int64) {
                out.append(UInt8(ascii: ","))
                LineFields.appendDecimal(value, to: &out)
            }
            field(stamp.modified)
            field(stamp.changed)
            field(Int64(bitPattern: stamp.inode))
            field(Int64(stamp.permissions))
        }
        entry.hash.appendHex(to: &out)
        out.append(9)
        LineFields.appendDecimal(entry.size, to: &out)
        out.append(9)
        out.append(entry.executable ? UInt8(ascii: "x") : UInt8(ascii: "-"))
        out.append(9)
        stamp(entry.stampA)
        out.append(9)
        stamp(entry.stampB)
        out.append(9)
        LineFields.appendEscaped(path.key, to: &out)
        if let id = entry.id {
            out.append(9)
            LineFields.appendEscaped(id, to: &out)
        }
        out.append(10)
    }

    /// Reads what ``serialized(generation:)`` wrote.
    package init(serialized bytes: [UInt8]) throws(SyncError) {
        self = try Self.parse(bytes).archive
    }

    /// An archive snapshot and its generation. By hand over the bytes, field by field,
    /// in two halves on two cores: an archive has a line per file, and reading it is most
    /// of a sync that finds little changed, after its look.
    static func parse(_ bytes: [UInt8]) throws(SyncError) -> (archive: SyncArchive, generation: Int) {
        let header = Array(Self.header.utf8)
        guard bytes.starts(with: header), let newline = bytes.firstIndex(of: 10),
              let generation = newline == header.count ? 0 : bytes[header.count..<newline].first == 32 ? LineFields.integer(bytes[(header.count + 1)..<newline]).map(Int.init) : nil
        else { throw SyncError(.stateDamaged, "the archive does not start with '\(Self.header)'") }
        // Split after a line's end near the middle; a small archive is read in one piece.
        let middle = bytes.count - newline > 1 << 20 ? bytes[(newline + bytes.count) / 2..<bytes.count].firstIndex(of: 10) : nil
        let parts = middle.map { [(newline + 1)..<($0 + 1), ($0 + 1)..<bytes.count] } ?? [(newline + 1)..<bytes.count]
        // The first half straight into the table, the second into a list added after:
        // each entry moved through a list was a copy, and the pages of one more buffer.
        var parsed = ConcurrentSlots<ParsedLines>.map(parts.count) { part in
            Self.lines(of: bytes, parts[part], capacity: part == 0 ? (bytes.count - newline) / 150 : nil)
        }
        var archive = SyncArchive()
        // The header is line 1.
        var lines = 1
        for index in parsed.indices {
            if let damaged = parsed[index].damaged { throw SyncError(.stateDamaged, "archive line \(lines + damaged) is damaged") }
            if index == 0 { swap(&archive.entries, &parsed[0].table) }
            for (path, entry) in parsed[index].list { archive.entries[path] = entry }
            lines += parsed[index].lines
        }
        return (archive, generation)
    }

    /// The entries of a run of whole lines, how many lines it has, and the first damaged
    /// one (counted from 1 within the run).
    fileprivate struct ParsedLines: Sendable {
        /// The entries in a table, or in a list in line order.
        var table: [SyncPath: Entry] = [:]
        var list: [(SyncPath, Entry)] = []
        var lines = 0
        var damaged: Int?
    }

    /// The entry lines of `bytes` in `range` (whole lines), as ``parse(_:)`` reads them:
    /// into a table of `capacity` when given, else into a list.
    fileprivate static func lines(of bytes: [UInt8], _ range: Range<Int>, capacity: Int?) -> ParsedLines {
        var parsed = ParsedLines()
        if let capacity { parsed.table.reserveCapacity(capacity) } else { parsed.list.reserveCapacity(range.count / 150) }
        bytes.withUnsafeBufferPointer { whole in
            let buffer = UnsafeBufferPointer(rebasing: whole[..<range.upperBound])
            var cursor = Cursor(buffer: buffer, at: range.lowerBound)
            while !cursor.atEnd {
                parsed.lines += 1
                guard cursor.startLine() else { continue }
                guard let (path, entry) = cursor.field().flatMap({ Self.entry(hash: $0, &cursor) }) else {
                    parsed.damaged = parsed.lines
                    return
                }
                if capacity != nil { parsed.table[path] = entry } else { parsed.list.append((path, entry)) }
            }
        }
        return parsed
    }

    /// The rest of an entry's line, its first field (the hash) read: nil when damaged.
    fileprivate static func entry(hash field: Slice<UnsafeBufferPointer<UInt8>>, _ cursor: inout Cursor) -> (SyncPath, Entry)? {
        guard let hash = SHA256.Digest(hex: UnsafeBufferPointer(rebasing: field)),
              let size = cursor.field().flatMap({ LineFields.integer($0) }),
              let executable = cursor.field().map({ $0.first == UInt8(ascii: "x") }),
              let a = cursor.field().flatMap({ Self.stamp($0) }), let b = cursor.field().flatMap({ Self.stamp($0) }),
              let path = cursor.field().flatMap({ LineFields.unescaped($0) })
        else { return nil }
        var id: String?
        if cursor.lineGoesOn {
            guard let text = cursor.field().flatMap({ LineFields.unescaped($0) }), !cursor.lineGoesOn else { return nil }
            id = text
        }
        return (SyncPath(key: path), Entry(hash: hash, size: size, executable: executable, stampA: a, stampB: b, id: id))
    }

    /// Applies the changes `log` records (``ArchiveStorage``) for snapshot generation
    /// `generation`: blocks of entry lines and `-<TAB>path` removals, each ended by
    /// `commit<TAB>generation`. Blocks of another generation (left by a snapshot that
    /// replaced them) are skipped. Returns whether the log ends in an unfinished block
    /// (a write cut short): that block is ignored.
    mutating func apply(log bytes: [UInt8], generation: Int) throws(SyncError) -> (torn: Bool, blocks: Int) {
        // Moved out, not copied: a second reference would make the first change copy the
        // whole table.
        var entries: [SyncPath: Entry] = [:]
        swap(&entries, &self.entries)
        defer { swap(&entries, &self.entries) }
        let result: Result<(Bool, Int), SyncError> = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(buffer: buffer, at: 0)
            var block: [(SyncPath, Entry?)] = []
            var blocks = 0
            var line = 0
            var cut = false
            lines: while !cursor.atEnd {
                line += 1
                guard cursor.startLine() else { continue }
                guard let first = cursor.field() else { return .failure(SyncError(.stateDamaged, "archive log line \(line) is damaged")) }
                if first.elementsEqual("-".utf8) {
                    guard let path = cursor.field().flatMap({ LineFields.unescaped($0) }), !cursor.lineGoesOn, cursor.endedLine else {
                        cut = true
                        break lines
                    }
                    block.append((SyncPath(key: path), nil))
                } else if first.elementsEqual("commit".utf8) {
                    guard let number = cursor.field().flatMap({ LineFields.integer($0) }), !cursor.lineGoesOn, cursor.endedLine else {
                        cut = true
                        break lines
                    }
                    if number == generation {
                        for (path, entry) in block { entries[path] = entry }
                        blocks += 1
                    }
                    block.removeAll()
                } else {
                    // A line cut short by a crash is damaged too: then the block is unfinished.
                    guard let (path, entry) = Self.entry(hash: first, &cursor), cursor.endedLine else {
                        cut = true
                        break lines
                    }
                    block.append((path, entry))
                }
            }
            return .success((cut || !block.isEmpty, blocks))
        }
        return try result.get()
    }

    /// Walks an archive's bytes one tab- or line-ended field at a time.
    fileprivate struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var position: Int
        /// Whether the current line has another field: it has just begun, or its last
        /// field ended with a tab.
        var lineGoesOn = true

        init(buffer: UnsafeBufferPointer<UInt8>, at position: Int) {
            (self.buffer, self.position) = (buffer, position)
        }

        var atEnd: Bool { position >= buffer.count }

        /// Whether the last field ended its line with a line feed (not the end of the bytes).
        var endedLine: Bool { position > 0 && position <= buffer.count && buffer[position - 1] == 10 }

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

    /// A stamp field: `.some(nil)` for "-", nil when damaged.
    static func stamp(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> FileStamp?? {
        if bytes.count == 1 && bytes.first == UInt8(ascii: "-") { return .some(nil) }
        var numbers: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        var rest = bytes[...]
        for index in 0..<5 {
            let comma = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
            guard (comma == rest.endIndex) == (index == 4), let number = LineFields.integer(rest[..<comma]) else { return nil }
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

}
