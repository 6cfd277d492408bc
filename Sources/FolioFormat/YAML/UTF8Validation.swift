/// UTF-8 validation that reports where the first bad byte is, which the
/// standard library's validating initializers do not.
package enum UTF8Validation {
    /// `bytes` as a string, or nil when they are not well-formed UTF-8 (as the standard
    /// library's `String(validating:as:)`, which needs macOS 15 / iOS 18).
    package static func string(_ bytes: [UInt8]) -> String? {
        let valid = bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0, range: 0..<$0.count) == nil }
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The offset of the first byte that does not belong to well-formed UTF-8 in
    /// `range`, or `nil` when every byte does.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        guard let base = bytes.baseAddress else { return nil }
        while i < end {
            // Eight ASCII bytes at a time: most front matter is ASCII.
            if i + 8 <= end && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let c = bytes[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return i
            }
            guard i + length <= end else { return i }
            let second = bytes[i + 1]
            if second < lower || second > upper { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}
