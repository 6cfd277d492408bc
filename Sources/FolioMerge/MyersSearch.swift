/// The middle-snake search of Myers' O(ND) diff over two sequences of line classes,
/// with xdiff's shortcuts: past a cost of 256 a long enough diagonal run is taken as a
/// split point, and past about √N the furthest-reaching path is, so that huge
/// differences stay fast at the price of a slightly longer script.
struct MyersSearch {
    let ha1: [Int]
    let ha2: [Int]
    private(set) var changed1: [Bool]
    private(set) var changed2: [Bool]
    /// Forward and backward furthest-reaching points by diagonal, offset so that
    /// diagonal d is at `d + offset`.
    private var forward: [Int]
    private var backward: [Int]
    private let offset: Int
    private let maxCost: Int
    private static let snakeCount = 20
    private static let heuristicMinimumCost = 256
    private static let heuristicFactor = 4
    private static let lineMax = Int.max

    init(ha1: [Int], ha2: [Int]) {
        self.ha1 = ha1
        self.ha2 = ha2
        changed1 = [Bool](repeating: false, count: ha1.count)
        changed2 = [Bool](repeating: false, count: ha2.count)
        let diagonals = ha1.count + ha2.count + 3
        forward = [Int](repeating: 0, count: diagonals + 1)
        backward = [Int](repeating: 0, count: diagonals + 1)
        offset = ha2.count + 1
        maxCost = max(LineDiff.bogusSquareRoot(diagonals), 256)
    }

    /// Marks the changed elements of `ha1[off1..<lim1]` against `ha2[off2..<lim2]`.
    mutating func compare(_ off1: Int, _ lim1: Int, _ off2: Int, _ lim2: Int, needMinimal: Bool) {
        var off1 = off1, lim1 = lim1, off2 = off2, lim2 = lim2
        while off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
            off1 += 1
            off2 += 1
        }
        while off1 < lim1 && off2 < lim2 && ha1[lim1 - 1] == ha2[lim2 - 1] {
            lim1 -= 1
            lim2 -= 1
        }
        if off1 == lim1 {
            for i in off2..<lim2 { changed2[i] = true }
        } else if off2 == lim2 {
            for i in off1..<lim1 { changed1[i] = true }
        } else {
            let split = self.split(off1, lim1, off2, lim2, needMinimal: needMinimal)
            compare(off1, split.i1, off2, split.i2, needMinimal: split.minimalLow)
            compare(split.i1, lim1, split.i2, lim2, needMinimal: split.minimalHigh)
        }
    }

    private struct Split {
        var i1 = 0, i2 = 0
        var minimalLow = true, minimalHigh = true
    }

    // The variable names follow the paper and xdiff: kvdf/kvdb are the forward and
    // backward V arrays, fmid/bmid the middle diagonals, ec the edit cost so far.
    private mutating func split(_ off1: Int, _ lim1: Int, _ off2: Int, _ lim2: Int, needMinimal: Bool) -> Split {
        let dmin = off1 - lim2, dmax = lim1 - off2
        let fmid = off1 - off2, bmid = lim1 - lim2
        let odd = (fmid - bmid) & 1 != 0
        var fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid
        let o = offset
        forward[fmid + o] = off1
        backward[bmid + o] = lim1
        var ec = 1
        while true {
            var gotSnake = false
            if fmin > dmin { fmin -= 1; forward[fmin - 1 + o] = -1 } else { fmin += 1 }
            if fmax < dmax { fmax += 1; forward[fmax + 1 + o] = -1 } else { fmax -= 1 }
            var d = fmax
            while d >= fmin {
                var i1 = forward[d - 1 + o] >= forward[d + 1 + o] ? forward[d - 1 + o] + 1 : forward[d + 1 + o]
                let previous = i1
                var i2 = i1 - d
                while i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
                    i1 += 1
                    i2 += 1
                }
                if i1 - previous > Self.snakeCount { gotSnake = true }
                forward[d + o] = i1
                if odd && bmin <= d && d <= bmax && backward[d + o] <= i1 {
                    return Split(i1: i1, i2: i2)
                }
                d -= 2
            }
            if bmin > dmin { bmin -= 1; backward[bmin - 1 + o] = Self.lineMax } else { bmin += 1 }
            if bmax < dmax { bmax += 1; backward[bmax + 1 + o] = Self.lineMax } else { bmax -= 1 }
            d = bmax
            while d >= bmin {
                var i1 = backward[d - 1 + o] < backward[d + 1 + o] ? backward[d - 1 + o] : backward[d + 1 + o] - 1
                let previous = i1
                var i2 = i1 - d
                while i1 > off1 && i2 > off2 && ha1[i1 - 1] == ha2[i2 - 1] {
                    i1 -= 1
                    i2 -= 1
                }
                if previous - i1 > Self.snakeCount { gotSnake = true }
                backward[d + o] = i1
                if !odd && fmin <= d && d <= fmax && i1 <= forward[d + o] {
                    return Split(i1: i1, i2: i2)
                }
                d -= 2
            }
            if needMinimal {
                ec += 1
                continue
            }
            if gotSnake && ec > Self.heuristicMinimumCost {
                var best = 0
                var found = Split(minimalLow: true, minimalHigh: false)
                d = fmax
                while d >= fmin {
                    let dd = d > fmid ? d - fmid : fmid - d
                    let i1 = forward[d + o], i2 = i1 - d
                    let v = (i1 - off1) + (i2 - off2) - dd
                    if v > Self.heuristicFactor * ec && v > best && off1 + Self.snakeCount <= i1 && i1 < lim1
                        && off2 + Self.snakeCount <= i2 && i2 < lim2
                    {
                        var k = 1
                        while ha1[i1 - k] == ha2[i2 - k] {
                            if k == Self.snakeCount {
                                best = v
                                (found.i1, found.i2) = (i1, i2)
                                break
                            }
                            k += 1
                        }
                    }
                    d -= 2
                }
                if best > 0 { return found }
                best = 0
                found = Split(minimalLow: false, minimalHigh: true)
                d = bmax
                while d >= bmin {
                    let dd = d > bmid ? d - bmid : bmid - d
                    let i1 = backward[d + o], i2 = i1 - d
                    let v = (lim1 - i1) + (lim2 - i2) - dd
                    if v > Self.heuristicFactor * ec && v > best && off1 < i1 && i1 <= lim1 - Self.snakeCount
                        && off2 < i2 && i2 <= lim2 - Self.snakeCount
                    {
                        var k = 0
                        while ha1[i1 + k] == ha2[i2 + k] {
                            if k == Self.snakeCount - 1 {
                                best = v
                                (found.i1, found.i2) = (i1, i2)
                                break
                            }
                            k += 1
                        }
                    }
                    d -= 2
                }
                if best > 0 { return found }
            }
            if ec >= maxCost {
                var fbest = -1, fbest1 = -1
                d = fmax
                while d >= fmin {
                    var i1 = min(forward[d + o], lim1)
                    var i2 = i1 - d
                    if lim2 < i2 { (i1, i2) = (lim2 + d, lim2) }
                    if fbest < i1 + i2 { (fbest, fbest1) = (i1 + i2, i1) }
                    d -= 2
                }
                var bbest = Self.lineMax, bbest1 = Self.lineMax
                d = bmax
                while d >= bmin {
                    var i1 = max(off1, backward[d + o])
                    var i2 = i1 - d
                    if i2 < off2 { (i1, i2) = (off2 + d, off2) }
                    if i1 + i2 < bbest { (bbest, bbest1) = (i1 + i2, i1) }
                    d -= 2
                }
                if (lim1 + lim2) - bbest < fbest - (off1 + off2) {
                    return Split(i1: fbest1, i2: fbest - fbest1, minimalLow: true, minimalHigh: false)
                }
                return Split(i1: bbest1, i2: bbest - bbest1, minimalLow: false, minimalHigh: true)
            }
            ec += 1
        }
    }
}
