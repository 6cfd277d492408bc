/// A file's bytes cut into lines the way git's xdiff cuts them: each line keeps its
/// terminating `\n` (a `\r` before it stays part of the line), and a last line
/// without one is a line too. Equal lines get equal class numbers, so comparing two
/// lines is comparing two integers.
struct LineFile {
    /// The bytes.
    let bytes: [UInt8]
    /// Each line's byte range.
    let lines: [Range<Int>]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var lines: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 10 {
            lines.append(start..<(index + 1))
            start = index + 1
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        self.lines = lines
    }

    var count: Int { lines.count }

    /// The bytes of line `index`.
    func line(_ index: Int) -> ArraySlice<UInt8> { bytes[lines[index]] }

    /// Whether line `index` ends with `\r\n` (xdiff's test for a CRLF line).
    func endsWithCRLF(_ index: Int) -> Bool {
        let range = lines[index]
        return range.count > 1 && bytes[range.upperBound - 1] == 10 && bytes[range.upperBound - 2] == 13
    }
}

/// Numbers distinct lines across the files of one comparison, so that equal lines
/// (byte for byte) share a number.
struct LineClassifier {
    private var numbers: [ArraySlice<UInt8>: Int] = [:]
    /// How many lines of each class the first and the second file hold.
    private(set) var countInFirst: [Int] = []
    private(set) var countInSecond: [Int] = []

    /// The class of each line of `file`, counted as the first or second file.
    mutating func classify(_ file: LineFile, asFirst: Bool) -> [Int] {
        file.lines.indices.map { index in
            let line = file.line(index)
            let number: Int
            if let known = numbers[line] {
                number = known
            } else {
                number = countInFirst.count
                numbers[line] = number
                countInFirst.append(0)
                countInSecond.append(0)
            }
            if asFirst { countInFirst[number] += 1 } else { countInSecond[number] += 1 }
            return number
        }
    }
}
