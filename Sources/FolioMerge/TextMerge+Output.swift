extension TextMerge {
    /// Writes the merge: our lines between regions, each region's chosen lines, and
    /// each conflict between markers whose line ends follow the files' (CRLF when the
    /// lines around it end so). A side whose last line has no line break gets one
    /// before the next marker.
    static func output(_ regions: [Region], base: LineFile, ours: LineFile, theirs: LineFile, options: MergeOptions) -> MergeResult {
        var out: [UInt8] = []
        out.reserveCapacity(ours.bytes.count + theirs.bytes.count / 8)
        var conflicts = 0
        var next = 0
        func copy(_ file: LineFile, _ start: Int, _ count: Int, crlf: Bool = false, ensureNewline: Bool = false) {
            guard count > 0 else { return }
            out.append(contentsOf: file.bytes[file.lines[start].lowerBound..<file.lines[start + count - 1].upperBound])
            if ensureNewline && out.last != 10 {
                if crlf { out.append(13) }
                out.append(10)
            }
        }
        func marker(_ character: UInt8, _ label: String?, crlf: Bool) {
            out.append(contentsOf: repeatElement(character, count: options.markerSize > 0 ? options.markerSize : 7))
            if let label {
                out.append(32)
                out.append(contentsOf: label.utf8)
            }
            if crlf { out.append(13) }
            out.append(10)
        }
        for var region in regions {
            switch options.favor {
            case .none: break
            case .ours: if region.mode == 0 { region.mode = 1 }
            case .theirs: if region.mode == 0 { region.mode = 2 }
            case .union: if region.mode == 0 { region.mode = 3 }
            }
            if region.mode == 0 {
                conflicts += 1
                let crlf = needsCR(region, base: base, ours: ours, theirs: theirs)
                copy(ours, next, region.i1 - next)
                marker(60, options.oursLabel, crlf: crlf)
                copy(ours, region.i1, region.chg1, crlf: crlf, ensureNewline: true)
                if options.showBase {
                    marker(124, options.baseLabel, crlf: crlf)
                    copy(base, region.i0, region.chg0, crlf: crlf, ensureNewline: true)
                }
                marker(61, nil, crlf: crlf)
                copy(theirs, region.i2, region.chg2, crlf: crlf, ensureNewline: true)
                marker(62, options.theirsLabel, crlf: crlf)
            } else if region.mode & 3 != 0 {
                copy(ours, next, region.i1 - next)
                if region.mode & 1 != 0 {
                    copy(ours, region.i1, region.chg1, crlf: needsCR(region, base: base, ours: ours, theirs: theirs), ensureNewline: region.mode & 2 != 0)
                }
                if region.mode & 2 != 0 { copy(theirs, region.i2, region.chg2) }
            } else {
                // Both sides made the same change: our lines already hold it.
                continue
            }
            next = region.i1 + region.chg1
        }
        copy(ours, next, ours.count - next)
        return MergeResult(bytes: out, conflicts: conflicts)
    }

    /// Whether a file's lines end in CRLF at `index`: 1 yes, 0 no, -1 cannot tell.
    static func lineEndIsCRLF(_ file: LineFile, _ index: Int) -> Int {
        if index < file.count - 1 { return file.endsWithCRLF(index) ? 1 : 0 }
        if file.count == 0 { return -1 }
        if file.line(index).last == 10 { return file.endsWithCRLF(index) ? 1 : 0 }
        if index == 0 { return -1 }
        return file.endsWithCRLF(index - 1) ? 1 : 0
    }

    /// Whether markers and added line breaks take CRLF: when the lines before the
    /// region on both sides, and the base's first line, all end in CRLF.
    static func needsCR(_ region: Region, base: LineFile, ours: LineFile, theirs: LineFile) -> Bool {
        var crlf = lineEndIsCRLF(ours, region.i1 > 0 ? region.i1 - 1 : 0)
        if crlf != 0 { crlf = lineEndIsCRLF(theirs, region.i2 > 0 ? region.i2 - 1 : 0) }
        if crlf != 0 { crlf = lineEndIsCRLF(base, 0) }
        return crlf > 0
    }
}
