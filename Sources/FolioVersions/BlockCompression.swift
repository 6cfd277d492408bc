/// A small LZ77 compressor for the blocks of a pack of versions: the versions of a
/// folder's records are text, and much alike (one template, one record edited a field at
/// a time), so back-references within a block of a few dozen of them take most of their
/// bytes. The toolchain ships no compressor on Linux, and the format is ours alone (the
/// pack is the state folder's, never shared), so it is kept to what a block needs.
///
/// The format (that of LZ4's blocks): a run of sequences, each a token byte — literal
/// count in the high four bits, match length less four in the low four, 15 meaning "more
/// in the bytes that follow, 255 at a time" — the literals, then (except in the last
/// sequence, which has literals only) a match as its distance back, two bytes little
/// endian, and its extra length bytes.
package enum BlockCompression {
    /// The shortest match worth a back-reference.
    package static let minimumMatch = 4
    /// How far back a match may start.
    package static let window = 65_535

    /// `bytes`, compressed. Greedy, with a table of the last position of each four-byte
    /// prefix: fast, and enough for text this alike. The table has a slot per eight
    /// bytes of input, at most 16,384 (zeroing 64 KB for each 32 KB block was a quarter
    /// of the work), prefixes are read as words and matches compared eight bytes at once.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2 + 16)
        bytes.withUnsafeBufferPointer { input in
            let count = input.count
            var bits = 8
            while bits < 14 && 1 << (bits + 3) < count { bits += 1 }
            var table = [Int32](repeating: -1, count: 1 << bits)
            let raw = UnsafeRawBufferPointer(input)
            func prefix(_ at: Int) -> UInt32 { raw.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
            func slot(_ value: UInt32) -> Int { Int((value &* 2_654_435_761) >> UInt32(32 - bits)) }
            var anchor = 0, position = 0
            // The last bytes are always literals: a match never runs to the very end.
            let lastMatchStart = count - minimumMatch - 1
            while position <= lastMatchStart {
                let value = prefix(position)
                let index = slot(value)
                let candidate = Int(table[index])
                table[index] = Int32(position)
                guard candidate >= 0, position - candidate <= window, prefix(candidate) == value else {
                    position += 1
                    continue
                }
                var length = minimumMatch
                // Eight bytes at a time while both sides have them, then byte by byte.
                while position + length + 8 < count - 1 {
                    let difference = raw.loadUnaligned(fromByteOffset: candidate + length, as: UInt64.self)
                        ^ raw.loadUnaligned(fromByteOffset: position + length, as: UInt64.self)
                    guard difference == 0 else {
                        length += UInt64(littleEndian: difference).trailingZeroBitCount / 8
                        break
                    }
                    length += 8
                }
                while position + length < count - 1 && input[candidate + length] == input[position + length] { length += 1 }
                emit(literals: input[anchor..<position], match: (distance: position - candidate, length: length), into: &out)
                position += length
                anchor = position
            }
            emit(literals: input[anchor..<count], match: nil, into: &out)
        }
        return out
    }

    /// The bytes `compressed` holds, nil when it is not a whole block of this format (or
    /// would decompress past `limit` bytes).
    package static func decompress(_ compressed: [UInt8], limit: Int = 1 << 26) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(min(limit, compressed.count * 4))
        let ok: Bool = compressed.withUnsafeBufferPointer { input in
            var at = 0
            func length(_ nibble: Int) -> Int? {
                var total = nibble
                guard nibble == 15 else { return total }
                while at < input.count {
                    let byte = Int(input[at])
                    at += 1
                    total += byte
                    if byte != 255 { return total }
                }
                return nil
            }
            while at < input.count {
                let token = Int(input[at])
                at += 1
                guard let literals = length(token >> 4), at + literals <= input.count, out.count + literals <= limit else { return false }
                out.append(contentsOf: input[at..<at + literals])
                at += literals
                // The last sequence: literals only.
                if at == input.count { return true }
                guard at + 2 <= input.count else { return false }
                let distance = Int(input[at]) | Int(input[at + 1]) << 8
                at += 2
                guard let extra = length(token & 15), distance > 0, distance <= out.count else { return false }
                let matched = extra + minimumMatch
                guard out.count + matched <= limit else { return false }
                // Byte by byte: a match may overlap what it copies (a run).
                var from = out.count - distance
                for _ in 0..<matched {
                    out.append(out[from])
                    from += 1
                }
            }
            return true
        }
        return ok ? out : nil
    }

    private static func emit(literals: Slice<UnsafeBufferPointer<UInt8>>, match: (distance: Int, length: Int)?, into out: inout [UInt8]) {
        let matchNibble = match.map { min($0.length - minimumMatch, 15) } ?? 0
        out.append(UInt8(min(literals.count, 15) << 4 | matchNibble))
        appendLength(literals.count, into: &out)
        out.append(contentsOf: literals)
        guard let match else { return }
        out.append(UInt8(match.distance & 0xFF))
        out.append(UInt8(match.distance >> 8))
        appendLength(match.length - minimumMatch, into: &out)
    }

    /// The bytes after a token for a count whose nibble said 15: 255 at a time.
    private static func appendLength(_ count: Int, into out: inout [UInt8]) {
        guard count >= 15 else { return }
        var rest = count - 15
        while rest >= 255 {
            out.append(255)
            rest -= 255
        }
        out.append(UInt8(rest))
    }
}
