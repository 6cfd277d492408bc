/// How a three-way merge resolves and shows conflicts, as `git merge-file` does.
public struct MergeOptions: Sendable, Hashable {
    /// What to do with a conflict.
    public enum Favor: Sendable, Hashable {
        /// Show it between markers.
        case none
        /// Take our side (`--ours`).
        case ours
        /// Take their side (`--theirs`).
        case theirs
        /// Take both, ours first (`--union`).
        case union
    }

    /// The label after `<<<<<<<` (nil: the marker alone).
    public var oursLabel: String?
    /// The label after `|||||||` (nil: the marker alone).
    public var baseLabel: String?
    /// The label after `>>>>>>>` (nil: the marker alone).
    public var theirsLabel: String?
    /// How conflicts are resolved.
    public var favor: Favor = .none
    /// Whether the base's lines are shown too, after `|||||||` (`--diff3`).
    public var showBase = false
    /// How many characters each marker has (`--marker-size`, default 7).
    public var markerSize = 7
    /// The line diff (`--diff-algorithm`; git's default is Myers).
    public var algorithm = DiffAlgorithm.myers

    /// Options with these labels.
    public init(oursLabel: String? = nil, baseLabel: String? = nil, theirsLabel: String? = nil) {
        (self.oursLabel, self.baseLabel, self.theirsLabel) = (oursLabel, baseLabel, theirsLabel)
    }
}

/// What a merge produced.
public struct MergeResult: Sendable, Hashable {
    /// The merged bytes, with conflict markers where sides could not be reconciled.
    public var bytes: [UInt8]
    /// How many conflicts are marked in ``bytes``.
    public var conflicts: Int
}

/// The three-way line merge of `git merge-file`, byte for byte: both sides diffed
/// against the base, changes that overlap or touch become conflicts, conflicts are
/// narrowed to the lines that really differ ("zealous"), and conflicts separated only
/// by lines without letters or digits are joined (git's default level).
public enum TextMerge {
    /// A region of the merge, in xdiff's terms: base lines `i0..<i0+chg0`, our
    /// lines `i1..<i1+chg1`, their lines `i2..<i2+chg2`.
    struct Region {
        /// 0 conflict, 1 ours changed, 2 theirs changed, 3 both (union), 4 both alike.
        var mode: Int
        var i0: Int, chg0: Int
        var i1: Int, chg1: Int
        var i2: Int, chg2: Int
    }

    /// Merges `ours` and `theirs`, two descendants of `base`.
    public static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8], options: MergeOptions = MergeOptions()) -> MergeResult {
        merge(base: base, ours: ours, theirs: theirs, options: options, keepingBothAdditions: false)
    }

    /// ``merge(base:ours:theirs:options:)``; with `keepingBothAdditions`, lines both
    /// sides only added at one place (no base line changed there) are all kept, ours
    /// first — how the lines of a multi-line value merge, where both sides appending a
    /// line means two lines more, not a clash. Not git's merge: the body keeps git's.
    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8], options: MergeOptions = MergeOptions(), keepingBothAdditions: Bool) -> MergeResult {
        let baseFile = LineFile(base), oursFile = LineFile(ours), theirsFile = LineFile(theirs)
        let script1 = LineDiff(baseFile, oursFile, algorithm: options.algorithm).script
        let script2 = LineDiff(baseFile, theirsFile, algorithm: options.algorithm).script
        if script1.isEmpty { return MergeResult(bytes: theirs, conflicts: 0) }
        if script2.isEmpty { return MergeResult(bytes: ours, conflicts: 0) }
        // diff3 output shows the base, so conflicts are neither narrowed nor joined.
        let zealous = !options.showBase
        var regions = combine(script1, script2, baseFile: baseFile, oursFile: oursFile, theirsFile: theirsFile, eager: !zealous)
        if zealous {
            regions = refine(regions, oursFile, theirsFile, algorithm: options.algorithm)
            // Before joining: a joined conflict spans lines both sides kept, which a union would repeat.
            if keepingBothAdditions {
                regions = regions.map { region in
                    var region = region
                    if region.mode == 0 && region.chg0 == 0 { region.mode = 3 }
                    return region
                }
            }
            regions = joinConflicts(regions, oursFile)
        }
        return output(regions, base: baseFile, ours: oursFile, theirs: theirsFile, options: options)
    }

    /// Walks both change lists in base order, making one region per change and one
    /// conflict for each set of changes that overlap or touch.
    static func combine(
        _ script1: [LineChange], _ script2: [LineChange], baseFile: LineFile, oursFile: LineFile, theirsFile: LineFile, eager: Bool
    ) -> [Region] {
        var regions: [Region] = []
        func append(_ mode: Int, _ i0: Int, _ chg0: Int, _ i1: Int, _ chg1: Int, _ i2: Int, _ chg2: Int) {
            if var last = regions.last, i1 <= last.i1 + last.chg1 || i2 <= last.i2 + last.chg2 {
                if mode != last.mode { last.mode = 0 }
                last.chg0 = i0 + chg0 - last.i0
                last.chg1 = i1 + chg1 - last.i1
                last.chg2 = i2 + chg2 - last.i2
                regions[regions.count - 1] = last
            } else {
                regions.append(Region(mode: mode, i0: i0, chg0: chg0, i1: i1, chg1: chg1, i2: i2, chg2: chg2))
            }
        }
        var a = 0, b = 0
        while a < script1.count && b < script2.count {
            let x = script1[a], y = script2[b]
            if x.first + x.count1 < y.first {
                append(1, x.first, x.count1, x.second, x.count2, y.second - y.first + x.first, x.count1)
                a += 1
                continue
            }
            if y.first + y.count1 < x.first {
                append(2, y.first, y.count1, x.second - x.first + y.first, y.count1, y.second, y.count2)
                b += 1
                continue
            }
            if x.first != y.first || x.count1 != y.count1 || x.count2 != y.count2
                || !sameLines(oursFile, x.second, theirsFile, y.second, x.count2)
            {
                let off = x.first - y.first
                let ffo = off + x.count1 - y.count1
                var i0 = x.first, i1 = x.second, i2 = y.second
                if off > 0 {
                    i0 -= off
                    i1 -= off
                } else {
                    i2 += off
                }
                var chg0 = x.first + x.count1 - i0
                var chg1 = x.second + x.count2 - i1
                var chg2 = y.second + y.count2 - i2
                if ffo < 0 {
                    chg0 -= ffo
                    chg1 -= ffo
                } else {
                    chg2 += ffo
                }
                append(0, i0, chg0, i1, chg1, i2, chg2)
            }
            let end1 = x.first + x.count1, end2 = y.first + y.count1
            if end1 >= end2 { b += 1 }
            if end2 >= end1 { a += 1 }
        }
        while a < script1.count {
            let x = script1[a]
            append(1, x.first, x.count1, x.second, x.count2, x.first + theirsFile.count - baseFile.count, x.count1)
            a += 1
        }
        while b < script2.count {
            let y = script2[b]
            append(2, y.first, y.count1, y.first + oursFile.count - baseFile.count, y.count1, y.second, y.count2)
            b += 1
        }
        return regions
    }

    static func sameLines(_ file1: LineFile, _ i1: Int, _ file2: LineFile, _ i2: Int, _ count: Int) -> Bool {
        (0..<count).allSatisfy { file1.line(i1 + $0) == file2.line(i2 + $0) }
    }

    /// Narrows each conflict to the lines where the two sides differ (by diffing
    /// them); a conflict whose sides are equal is no conflict.
    static func refine(_ regions: [Region], _ ours: LineFile, _ theirs: LineFile, algorithm: DiffAlgorithm) -> [Region] {
        var out: [Region] = []
        for region in regions {
            guard region.mode == 0, region.chg1 > 0, region.chg2 > 0 else {
                out.append(region)
                continue
            }
            let side1 = LineFile(Array(ours.bytes[ours.lines[region.i1].lowerBound..<ours.lines[region.i1 + region.chg1 - 1].upperBound]))
            let side2 = LineFile(Array(theirs.bytes[theirs.lines[region.i2].lowerBound..<theirs.lines[region.i2 + region.chg2 - 1].upperBound]))
            let script = LineDiff(side1, side2, algorithm: algorithm).script
            guard !script.isEmpty else {
                var same = region
                same.mode = 4
                out.append(same)
                continue
            }
            for change in script {
                var part = region
                part.i1 = change.first + region.i1
                part.chg1 = change.count1
                part.i2 = change.second + region.i2
                part.chg2 = change.count2
                out.append(part)
            }
        }
        return out
    }

    /// Joins two conflicts when what separates them is at most three lines, or only
    /// lines without a letter or digit: one conflict reads more easily than two.
    static func joinConflicts(_ regions: [Region], _ ours: LineFile) -> [Region] {
        var out: [Region] = []
        for region in regions {
            if var last = out.last, last.mode == 0, region.mode == 0 {
                let begin = last.i1 + last.chg1, end = region.i1
                let separatorHasText = (begin..<end).contains { index in
                    ours.line(index).contains { byte in
                        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                    }
                }
                if end - begin <= 3 || !separatorHasText {
                    last.chg1 = region.i1 + region.chg1 - last.i1
                    last.chg2 = region.i2 + region.chg2 - last.i2
                    out[out.count - 1] = last
                    continue
                }
            }
            out.append(region)
        }
        return out
    }
}
