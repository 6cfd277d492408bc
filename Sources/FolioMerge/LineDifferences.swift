/// Two texts compared line by line for a person to read, as `diff` shows them without
/// context: the lines only the first holds and those only the second holds, in order.
/// It uses git's default line diff (``LineDiff``), so it agrees with the merges.
public enum LineDifferences {
    /// One changed line.
    public enum Line: Sendable, Hashable {
        /// A line only the first text holds.
        case removed(String)
        /// A line only the second text holds.
        case added(String)
    }

    /// The lines of `first` and `second` that differ, without their line endings:
    /// each change's removed lines, then its added ones. Empty when they are equal.
    public static func changes(from first: [UInt8], to second: [UInt8]) -> [Line] {
        let before = LineFile(first), after = LineFile(second)
        var lines: [Line] = []
        for change in LineDiff(before, after).script {
            lines += (change.first..<change.first + change.count1).map { .removed(text(before.line($0))) }
            lines += (change.second..<change.second + change.count2).map { .added(text(after.line($0))) }
        }
        return lines
    }

    /// A line's text, without `\n` or `\r\n` (bytes that are not UTF-8 replaced).
    private static func text(_ line: ArraySlice<UInt8>) -> String {
        var line = line
        if line.last == 10 { line = line.dropLast() }
        if line.last == 13 { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
