/// SHA-256 (FIPS 180-4), for the content hashes of the sync archive: a standard hash,
/// so that an archive can be checked with any tool (`sha256sum`).
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k = SHA256Hardware.roundConstants

    /// A hash of nothing yet.
    package init() {}

    /// The hash of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to what is hashed; `hardware`: whole blocks through the processor's
    /// SHA instructions (false only for tests, which check one against the other).
    package mutating func update(_ bytes: [UInt8], hardware: Bool = SHA256Hardware.isAvailable) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            let needed = 64 - pending.count
            pending += bytes.prefix(needed)
            start = min(needed, bytes.count)
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBufferPointer { compress($0, from: 0, blocks: 1, hardware: hardware) }
            pending.removeAll(keepingCapacity: true)
        }
        bytes.withUnsafeBufferPointer { buffer in
            let blocks = (buffer.count - start) / 64
            compress(buffer, from: start, blocks: blocks, hardware: hardware)
            start += 64 * blocks
        }
        pending += bytes[start...]
    }

    /// Compresses `blocks` whole blocks of `buffer` from `start`.
    private mutating func compress(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, blocks: Int, hardware: Bool) {
        guard blocks > 0 else { return }
        guard hardware else {
            for block in 0..<blocks { compress(buffer, at: start + 64 * block) }
            return
        }
        withUnsafeMutableBytes(of: &state) { words in
            SHA256Hardware.compress(words.baseAddress!.assumingMemoryBound(to: UInt32.self), buffer.baseAddress! + start, blocks: blocks)
        }
    }

    /// The digest of everything added.
    package func finalize(hardware: Bool = SHA256Hardware.isAvailable) -> Digest {
        var copy = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        tail += [UInt8](repeating: 0, count: (55 &- Int(length % 64) + 64) % 64)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        let savedLength = copy.length
        copy.update(tail, hardware: hardware)
        copy.length = savedLength
        let s = copy.state
        return Digest(
            UInt64(s.0) << 32 | UInt64(s.1), UInt64(s.2) << 32 | UInt64(s.3),
            UInt64(s.4) << 32 | UInt64(s.5), UInt64(s.6) << 32 | UInt64(s.7))
    }

    private mutating func compress(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
        // The message schedule lives on the stack: one heap array per 64-byte block
        // had made hashing several times slower.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.k.withUnsafeBufferPointer { k in
                for i in 0..<16 {
                    let j = offset + 4 * i
                    w[i] = UInt32(buffer[j]) << 24 | UInt32(buffer[j + 1]) << 16 | UInt32(buffer[j + 2]) << 8 | UInt32(buffer[j + 3])
                }
                for i in 16..<64 {
                    let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                    let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = state
                for i in 0..<64 {
                    let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                    let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
                state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
            }
        }
    }

    /// A SHA-256 digest: 32 bytes, written as 64 lowercase hex digits. Held as four
    /// words, not an array: an archive holds one per file, and they are compared and
    /// hashed in every table of a sync.
    package struct Digest: Sendable, Hashable, CustomStringConvertible {
        private let words: (UInt64, UInt64, UInt64, UInt64)

        package init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) { words = (w0, w1, w2, w3) }

        /// The 32 bytes.
        package var bytes: [UInt8] {
            [words.0, words.1, words.2, words.3].flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } }
        }

        /// The digest as 64 lowercase hexadecimal digits.
        package var description: String {
            var out: [UInt8] = []
            appendHex(to: &out)
            return String(decoding: out, as: UTF8.self)
        }

        /// Appends the 64 lowercase hexadecimal digits to `out`.
        package func appendHex(to out: inout [UInt8]) {
            // Made on the stack and appended at once: a first sync writes one per file,
            // and 64 appends one by one each checked the array's capacity.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digits in
                var position = 0
                func put(_ word: UInt64) {
                    for shift in stride(from: 60, through: 0, by: -4) {
                        let nibble = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 15
                        digits[position] = nibble < 10 ? 48 + nibble : 87 + nibble
                        position += 1
                    }
                }
                put(words.0)
                put(words.1)
                put(words.2)
                put(words.3)
                out.append(contentsOf: digits)
            }
        }

        /// The digest written as `description` writes it, or nil.
        package init?(hex: String) {
            guard let digest = Array(hex.utf8).withUnsafeBufferPointer({ Digest(hex: $0) }) else { return nil }
            self = digest
        }

        /// The digest from 64 hex digits in `utf8`, or nil.
        package init?(hex utf8: UnsafeBufferPointer<UInt8>) {
            func word(_ start: Int) -> UInt64? {
                var value: UInt64 = 0
                for i in start..<start + 16 {
                    guard let nibble = Self.nibble(utf8[i]) else { return nil }
                    value = value << 4 | UInt64(nibble)
                }
                return value
            }
            guard utf8.count == 64, let w0 = word(0), let w1 = word(16), let w2 = word(32), let w3 = word(48) else { return nil }
            words = (w0, w1, w2, w3)
        }

        package static func == (lhs: Digest, rhs: Digest) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
        }

        package func hash(into hasher: inout Hasher) {
            // The words are already uniformly spread: one is plenty for a table.
            hasher.combine(words.0)
        }

        private static func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            default: nil
            }
        }
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
