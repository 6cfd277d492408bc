import FolioSystem

/// SHA-256 (FIPS 180-4), for the content hashes of the sync archive: a standard hash,
/// so that an archive can be checked with any tool (`sha256sum`).
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

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

        init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) { words = (w0, w1, w2, w3) }

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
        func appendHex(to out: inout [UInt8]) {
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
        init?(hex utf8: UnsafeBufferPointer<UInt8>) {
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
