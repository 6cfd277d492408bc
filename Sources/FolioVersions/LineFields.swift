/// The fields of Folio's line files (the archive, the history logs, the pack's index):
/// decimal integers and paths with `%`, tab, line feed and carriage return escaped, read
/// and written by hand over bytes, as a sync or a history reads thousands of lines.
package enum LineFields {
    /// Appends `value` in decimal: an archive line holds a dozen numbers (stamps in
    /// nanoseconds, 19 digits), and a first sync writes a line per file. The digits are
    /// made last first, dividing by the constant 10 (a multiplication), in a buffer on
    /// the stack, and appended at once.
    package static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude, start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A decimal integer (optionally negative) from bytes: read by the non-generic form
    /// below, over the bytes' own storage when they have one.
    package static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int64? {
        bytes.withContiguousStorageIfAvailable { integer($0[...]) } ?? integer(Array(bytes)[...])
    }

    /// A decimal integer (optionally negative) from a field of a line file read into
    /// memory. Not generic: called from another module, a generic reader runs
    /// unspecialised, each byte through generic metadata (half of a 100,000-file archive's
    /// load went there).
    package static func integer(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var index = bytes.startIndex
        let negative = index < bytes.endIndex && bytes.base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.endIndex else { return nil }
        var value: Int64 = 0
        while index < bytes.endIndex {
            let byte = bytes.base[index]
            guard byte >= 48 && byte <= 57 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 48))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    /// ``unescaped(_:)`` of a field of a line file read into memory (not generic, for
    /// the reason the integer's form above is not).
    package static func unescaped(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        let buffer = UnsafeBufferPointer(rebasing: text)
        guard buffer.contains(UInt8(ascii: "%")) else { return String(decoding: buffer, as: UTF8.self) }
        return decodingEscapes(buffer)
    }

    /// ``integer(_:)`` of a field split out of a line file's bytes (not generic either).
    package static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        bytes.withUnsafeBufferPointer { integer($0[...]) }
    }

    /// ``unescaped(_:)`` of a field split out of a line file's bytes (not generic either).
    package static func unescaped(_ text: ArraySlice<UInt8>) -> String? {
        text.withUnsafeBufferPointer { unescaped($0[...]) }
    }

    /// The path with `%`, tab, line feed and carriage return written `%25`, `%09`, `%0A`, `%0D`.
    package static func escaped(_ path: String) -> String {
        var out: [UInt8] = []
        appendEscaped(path, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    package static func appendEscaped(_ path: String, to out: inout [UInt8]) {
        // Uppercase digits, computed: no table to allocate for each of a sync's lines.
        func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble }
        func isEscaped(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "%") || byte == 9 || byte == 10 || byte == 13 }
        // Most paths have nothing to escape: appended whole.
        guard path.utf8.contains(where: isEscaped) else { return out.append(contentsOf: path.utf8) }
        for byte in path.utf8 {
            if isEscaped(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(hex(byte >> 4))
                out.append(hex(byte & 15))
            } else {
                out.append(byte)
            }
        }
    }

    package static func unescaped(_ text: String) -> String? { unescaped(text.utf8) }

    package static func unescaped<Bytes: Collection<UInt8>>(_ text: Bytes) -> String? {
        guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
        return decodingEscapes(text)
    }

    /// The bytes with each `%XX` decoded; nil when one is not two hex digits.
    private static func decodingEscapes<Bytes: Collection<UInt8>>(_ text: Bytes) -> String? {
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
