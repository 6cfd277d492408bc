/// Which line diff to run, as git's `--diff-algorithm` names them.
public enum DiffAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// Myers' algorithm with xdiff's shortcuts: git's default.
    case myers
    /// Myers' algorithm without the shortcuts: the shortest edit script.
    case minimal
    /// git's histogram diff: matches anchored on the least frequent lines.
    case histogram
}

/// Lines `first..<first + count1` of one file replaced by `second..<second + count2` of another.
struct LineChange: Equatable {
    var first: Int
    var second: Int
    var count1: Int
    var count2: Int
}

/// The line diff git's xdiff computes by default (Myers' algorithm with xdiff's
/// shortcuts), reproduced so that Folio's text merge equals `git merge-file` byte for
/// byte: common ends trimmed; lines with no match on the other side, and runs of
/// lines with very many matches, set aside before the search; the middle-snake
/// search with its cost cut-offs; then each changed group slid as far down as it
/// goes and back up to line up with a change on the other side.
struct LineDiff {
    let file1: LineFile
    let file2: LineFile
    /// Whether each line changed, with a `false` sentinel before and after (index + 1).
    private(set) var changed1: [Bool]
    private(set) var changed2: [Bool]
    private let classes1: [Int]
    private let classes2: [Int]

    /// The diff of `file1` against `file2`; `compacting: false` leaves changed groups
    /// where the search put them (for a diff nested in a histogram diff).
    init(_ file1: LineFile, _ file2: LineFile, algorithm: DiffAlgorithm = .myers, compacting: Bool = true) {
        self.file1 = file1
        self.file2 = file2
        var classifier = LineClassifier()
        classes1 = classifier.classify(file1, asFirst: true)
        classes2 = classifier.classify(file2, asFirst: false)
        changed1 = [Bool](repeating: false, count: file1.count + 2)
        changed2 = [Bool](repeating: false, count: file2.count + 2)
        switch algorithm {
        case .myers, .minimal: compare(classifier, minimal: algorithm == .minimal)
        case .histogram:
            var search = HistogramSearch(file1, file2, classes1: classes1, classes2: classes2)
            search.diff(1, file1.count, 1, file2.count)
            // Both are indexed by 1-based line number.
            for line in 1...max(file1.count, 1) where line <= file1.count { changed1[line] = search.changed1[line] }
            for line in 1...max(file2.count, 1) where line <= file2.count { changed2[line] = search.changed2[line] }
        }
        guard compacting else { return }
        Self.compact(&changed1, classes1, &changed2)
        Self.compact(&changed2, classes2, &changed1)
    }

    /// The changes, in order.
    var script: [LineChange] {
        var changes: [LineChange] = []
        var i1 = file1.count, i2 = file2.count
        // Walk back from the ends, as xdiff builds its script.
        while i1 >= 0 || i2 >= 0 {
            if (i1 > 0 && changed1[i1]) || (i2 > 0 && changed2[i2]) {
                let end1 = i1, end2 = i2
                while i1 > 0 && changed1[i1] { i1 -= 1 }
                while i2 > 0 && changed2[i2] { i2 -= 1 }
                changes.append(LineChange(first: i1, second: i2, count1: end1 - i1, count2: end2 - i2))
            }
            i1 -= 1
            i2 -= 1
        }
        return changes.reversed()
    }

    // MARK: Preparation

    /// Trims the common ends, sets aside lines that cannot or need not take part in
    /// the search, and runs it on the rest.
    private mutating func compare(_ classifier: LineClassifier, minimal: Bool) {
        let n1 = file1.count, n2 = file2.count
        var start = 0
        while start < min(n1, n2) && classes1[start] == classes2[start] { start += 1 }
        var tail = 0
        while tail < min(n1, n2) - start && classes1[n1 - 1 - tail] == classes2[n2 - 1 - tail] { tail += 1 }
        let end1 = n1 - tail - 1, end2 = n2 - tail - 1

        // Keep (1), set aside (0: no match), or maybe set aside (2: matches very often).
        func marks(_ classes: [Int], from start: Int, through end: Int, count: Int, matches: [Int]) -> [UInt8] {
            let limit = min(Self.bogusSquareRoot(count), 1024)
            var marks = [UInt8](repeating: 0, count: count + 1)
            if start <= end {
                for i in start...end {
                    let m = matches[classes[i]]
                    marks[i] = m == 0 ? 0 : m >= limit && !minimal ? 2 : 1
                }
            }
            return marks
        }
        let marks1 = marks(classes1, from: start, through: end1, count: n1, matches: classifier.countInSecond)
        let marks2 = marks(classes2, from: start, through: end2, count: n2, matches: classifier.countInFirst)
        func kept(_ classes: [Int], _ marks: [UInt8], from start: Int, through end: Int, changed: inout [Bool]) -> (index: [Int], classes: [Int]) {
            var index: [Int] = [], kept: [Int] = []
            if start <= end {
                for i in start...end {
                    if marks[i] == 1 || (marks[i] == 2 && !Self.setsAsideMultimatch(marks, i, start, end)) {
                        index.append(i)
                        kept.append(classes[i])
                    } else {
                        changed[i + 1] = true
                    }
                }
            }
            return (index, kept)
        }
        let (index1, ha1) = kept(classes1, marks1, from: start, through: end1, changed: &changed1)
        let (index2, ha2) = kept(classes2, marks2, from: start, through: end2, changed: &changed2)

        var search = MyersSearch(ha1: ha1, ha2: ha2)
        search.compare(0, ha1.count, 0, ha2.count, needMinimal: minimal)
        for i in search.changed1.indices where search.changed1[i] { changed1[index1[i] + 1] = true }
        for i in search.changed2.indices where search.changed2[i] { changed2[index2[i] + 1] = true }
    }

    /// xdiff's cheap square root: the power of two about √n.
    static func bogusSquareRoot(_ n: Int) -> Int {
        var i = 1, n = n
        while n > 0 {
            i <<= 1
            n >>= 2
        }
        return i
    }

    /// Whether a line with many matches sits among lines without a match, so that
    /// setting it aside too gives a cleaner diff (xdiff's `xdl_clean_mmatch`).
    private static func setsAsideMultimatch(_ marks: [UInt8], _ i: Int, _ start: Int, _ end: Int) -> Bool {
        let window = 100
        let s = i - start > window ? i - window : start
        let e = end - i > window ? i + window : end
        var r = 1, noMatchBefore = 0, multiBefore = 1
        while i - r >= s {
            if marks[i - r] == 0 { noMatchBefore += 1 } else if marks[i - r] == 2 { multiBefore += 1 } else { break }
            r += 1
        }
        if noMatchBefore == 0 { return false }
        r = 1
        var noMatchAfter = 0, multiAfter = 1
        while i + r <= e {
            if marks[i + r] == 0 { noMatchAfter += 1 } else if marks[i + r] == 2 { multiAfter += 1 } else { break }
            r += 1
        }
        if noMatchAfter == 0 { return false }
        let noMatch = noMatchBefore + noMatchAfter
        let multi = multiBefore + multiAfter
        return multi * 4 < multi + noMatch
    }

    // MARK: Sliding groups

    /// Slides each group of changed lines of one file down as far as it goes, merging
    /// it with groups it meets, then back up to line up with the last place a change
    /// of the other file faced it (xdiff's `xdl_change_compact`, without the indent
    /// heuristic, which `git merge-file` does not use).
    private static func compact(_ changed: inout [Bool], _ classes: [Int], _ other: inout [Bool]) {
        let n = classes.count, nOther = other.count - 2
        // Groups are [start, end) over line indices; changed[] is indexed +1.
        func isChanged(_ flags: [Bool], _ i: Int) -> Bool { flags[i + 1] }
        var start = 0, end = 0
        while isChanged(changed, end) { end += 1 }
        var otherStart = 0, otherEnd = 0
        while isChanged(other, otherEnd) { otherEnd += 1 }

        func slideDown() -> Bool {
            guard end < n && classes[start] == classes[end] else { return false }
            changed[start + 1] = false
            start += 1
            changed[end + 1] = true
            end += 1
            while isChanged(changed, end) { end += 1 }
            return true
        }
        func slideUp() -> Bool {
            guard start > 0 && classes[start - 1] == classes[end - 1] else { return false }
            start -= 1
            changed[start + 1] = true
            end -= 1
            changed[end + 1] = false
            while isChanged(changed, start - 1) { start -= 1 }
            return true
        }
        func otherNext() {
            precondition(otherEnd < nOther, "group sync broken")
            otherStart = otherEnd + 1
            otherEnd = otherStart
            while isChanged(other, otherEnd) { otherEnd += 1 }
        }
        func otherPrevious() {
            precondition(otherStart > 0, "group sync broken")
            otherEnd = otherStart - 1
            otherStart = otherEnd
            while isChanged(other, otherStart - 1) { otherStart -= 1 }
        }

        while true {
            if end != start {
                var earliestEnd = 0
                var endMatchingOther = -1
                var size = 0
                repeat {
                    size = end - start
                    endMatchingOther = -1
                    while slideUp() { otherPrevious() }
                    earliestEnd = end
                    if otherEnd > otherStart { endMatchingOther = end }
                    while slideDown() {
                        otherNext()
                        if otherEnd > otherStart { endMatchingOther = end }
                    }
                } while size != end - start
                if end != earliestEnd && endMatchingOther != -1 {
                    while otherEnd == otherStart {
                        precondition(slideUp(), "match disappeared")
                        otherPrevious()
                    }
                }
            }
            // The next group (possibly empty).
            if end == n { break }
            start = end + 1
            end = start
            while isChanged(changed, end) { end += 1 }
            otherNext()
        }
    }
}
