/// The lines two texts differ in, as the smallest block after removing the common
/// first and last lines — enough to check that an edit stayed within some lines.
package struct LineDiff {
    /// 1-based line numbers in the old text that were replaced (empty for a pure insertion).
    package var oldLines: Range<Int>
    /// 1-based line numbers in the new text that replaced them.
    package var newLines: Range<Int>

    package init(_ old: [UInt8], _ new: [UInt8]) {
        let a = LineDiff.lines(old), b = LineDiff.lines(new)
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        oldLines = (prefix + 1)..<(a.count - suffix + 1)
        newLines = (prefix + 1)..<(b.count - suffix + 1)
    }

    /// Lines with their line breaks, so a changed line ending counts as a change.
    package static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 10 {
            out.append(bytes[start...i])
            start = i + 1
        }
        if start < bytes.count { out.append(bytes[start...]) }
        return out
    }
}

/// The 1-based line of a byte offset.
package func lineNumber(of offset: Int, in bytes: [UInt8]) -> Int {
    1 + bytes[..<offset].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
}
