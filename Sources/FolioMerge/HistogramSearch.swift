/// git's histogram diff (xdiff's `xhistogram.c`): the longest run of lines common to
/// both sides, preferring lines that occur least often in the first, splits the
/// problem in two; where every common line is too frequent, Myers' diff takes over.
/// Repeated lines (blank lines, `}`) then rarely anchor a match, so moved and
/// repeated lines give readable hunks.
struct HistogramSearch {
    let file1: LineFile
    let file2: LineFile
    /// Line classes, 1-based as in xdiff (index 0 unused).
    private let a: [Int]
    private let b: [Int]
    /// Whether each line changed, 1-based.
    private(set) var changed1: [Bool]
    private(set) var changed2: [Bool]
    private static let maxChainLength = 64

    init(_ file1: LineFile, _ file2: LineFile, classes1: [Int], classes2: [Int]) {
        self.file1 = file1
        self.file2 = file2
        a = [-1] + classes1
        b = [-2] + classes2
        changed1 = [Bool](repeating: false, count: classes1.count + 1)
        changed2 = [Bool](repeating: false, count: classes2.count + 1)
    }

    private struct Region {
        var begin1 = 0, end1 = 0, begin2 = 0, end2 = 0
    }

    /// Marks the changed lines of `line1..<line1+count1` against `line2..<line2+count2`.
    mutating func diff(_ line1: Int, _ count1: Int, _ line2: Int, _ count2: Int) {
        var (line1, count1, line2, count2) = (line1, count1, line2, count2)
        while true {
            if count1 <= 0 && count2 <= 0 { return }
            if count1 == 0 {
                for l in line2..<line2 + count2 { changed2[l] = true }
                return
            }
            if count2 == 0 {
                for l in line1..<line1 + count1 { changed1[l] = true }
                return
            }
            guard let lcs = findLCS(line1, count1, line2, count2) else {
                fallBack(line1, count1, line2, count2)
                return
            }
            if lcs.begin1 == 0 && lcs.begin2 == 0 {
                for l in line1..<line1 + count1 { changed1[l] = true }
                for l in line2..<line2 + count2 { changed2[l] = true }
                return
            }
            diff(line1, lcs.begin1 - line1, line2, lcs.begin2 - line2)
            let end1 = line1 + count1 - 1, end2 = line2 + count2 - 1
            (line1, count1, line2, count2) = (lcs.end1 + 1, end1 - lcs.end1, lcs.end2 + 1, end2 - lcs.end2)
        }
    }

    /// The longest common region of least-frequent lines; nil when the lines in
    /// common all occur more than 64 times (Myers then decides).
    private func findLCS(_ line1: Int, _ count1: Int, _ line2: Int, _ count2: Int) -> Region? {
        let end1 = line1 + count1 - 1, end2 = line2 + count2 - 1
        // Each class's occurrences in the first range: the first line, the count, and a
        // next-occurrence link per line (0 ends), built from the end backwards.
        var first: [Int: Int] = [:], count: [Int: Int] = [:]
        var next = [Int](repeating: 0, count: count1 + 1)
        for line in stride(from: end1, through: line1, by: -1) {
            let c = a[line]
            if let head = first[c] { next[line - line1] = head }
            first[c] = line
            count[c, default: 0] += 1
        }
        func occurrences(_ line: Int) -> Int { count[a[line]]! }
        func nextOccurrence(_ line: Int) -> Int { next[line - line1] }

        var lcs = Region()
        var best = Self.maxChainLength + 1
        var hasCommon = false
        var bLine = line2
        while bLine <= end2 {
            var bNext = bLine + 1
            if let start = first[b[bLine]] {
                let recordCount = count[b[bLine]]!
                if recordCount > best {
                    hasCommon = true
                } else {
                    hasCommon = true
                    var aStart = start
                    while true {
                        let np = nextOccurrence(aStart)
                        var bs = bLine, aEnd = aStart, bEnd = bs
                        var as_ = aStart
                        var rc = recordCount
                        while line1 < as_ && line2 < bs && a[as_ - 1] == b[bs - 1] {
                            as_ -= 1
                            bs -= 1
                            if 1 < rc { rc = min(rc, occurrences(as_)) }
                        }
                        while aEnd < end1 && bEnd < end2 && a[aEnd + 1] == b[bEnd + 1] {
                            aEnd += 1
                            bEnd += 1
                            if 1 < rc { rc = min(rc, occurrences(aEnd)) }
                        }
                        if bNext <= bEnd { bNext = bEnd + 1 }
                        if lcs.end1 - lcs.begin1 < aEnd - as_ || rc < best {
                            lcs = Region(begin1: as_, end1: aEnd, begin2: bs, end2: bEnd)
                            best = rc
                        }
                        if np == 0 { break }
                        var candidate = np
                        while candidate != 0 && candidate <= aEnd { candidate = nextOccurrence(candidate) }
                        if candidate == 0 { break }
                        aStart = candidate
                    }
                }
            }
            bLine = bNext
        }
        if hasCommon && Self.maxChainLength < best { return nil }
        return lcs
    }

    /// Myers' diff (with all of xdiff's preparation) on the two ranges as files of their own.
    private mutating func fallBack(_ line1: Int, _ count1: Int, _ line2: Int, _ count2: Int) {
        let sub1 = LineFile(Array(file1.bytes[file1.lines[line1 - 1].lowerBound..<file1.lines[line1 + count1 - 2].upperBound]))
        let sub2 = LineFile(Array(file2.bytes[file2.lines[line2 - 1].lowerBound..<file2.lines[line2 + count2 - 2].upperBound]))
        let inner = LineDiff(sub1, sub2, algorithm: .myers, compacting: false)
        for i in 0..<count1 { changed1[line1 + i] = inner.changed1[i + 1] }
        for i in 0..<count2 { changed2[line2 + i] = inner.changed2[i + 1] }
    }
}
