/// A digest in 43 characters (base64url, no padding) rather than 64 hex digits: the
/// pack's index holds one per version, and its lines were mostly the hash.
extension SHA256.Digest {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Appends the 43 base64url characters of the 32 bytes to `out`.
    package func appendBase64(to out: inout [UInt8]) {
        let bytes = self.bytes
        var index = 0
        while index < 32 {
            let chunk = bytes[index..<min(index + 3, 32)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - 8 * offset) }
            // Three bytes are four characters; the last two bytes are three.
            for position in 0...chunk.count { out.append(Self.alphabet[Int(value >> UInt32(18 - 6 * position)) & 63]) }
            index += 3
        }
    }

    /// The digest from the 43 base64url characters in `utf8`, or nil. Into four words as
    /// it goes, with nothing allocated: an index of 100,000 versions is read a line each.
    package init?(base64 utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.count == 43 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var value: UInt32 = 0, bits = 0, count = 0
        for character in utf8 {
            let sextet: UInt8
            switch character {
            case 65...90: sextet = character - 65
            case 97...122: sextet = character - 71
            case 48...57: sextet = character + 4
            case 45: sextet = 62
            case 95: sextet = 63
            default: return nil
            }
            value = value << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                let byte = UInt64(UInt8(truncatingIfNeeded: value >> UInt32(bits)))
                switch count / 8 {
                case 0: words.0 = words.0 << 8 | byte
                case 1: words.1 = words.1 << 8 | byte
                case 2: words.2 = words.2 << 8 | byte
                default: words.3 = words.3 << 8 | byte
                }
                count += 1
            }
        }
        // 43 characters carry 258 bits: the last two must be zero, as the encoder leaves them.
        guard count == 32, value & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        self.init(words.0, words.1, words.2, words.3)
    }
}
