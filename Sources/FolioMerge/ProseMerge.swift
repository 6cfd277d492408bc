import FolioFormat

/// The merge of prose that the line merge gives up on: where both sides changed the
/// same lines, each line both changed is merged sentence by sentence (``Sentences``),
/// so two edits of one paragraph — a line — both stay when they touch different
/// sentences. Anything else stays a conflict: the same sentence changed on both sides,
/// a change that splits or joins sentences (their boundaries moved: the line merge's
/// verdict stands), a region where the sides changed different numbers of lines, and
/// text that is not prose (a table row, a heading, code).
enum ProseMerge {
    /// `ours` and `theirs` merged, or nil when they conflict.
    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        let b = LineFile(base), o = LineFile(ours), t = LineFile(theirs)
        guard ![b, o, t].contains(where: hasCode) else { return nil }
        let script1 = LineDiff(b, o, algorithm: .myers).script
        let script2 = LineDiff(b, t, algorithm: .myers).script
        if script1.isEmpty { return theirs }
        if script2.isEmpty { return ours }
        var out: [UInt8] = []
        var next = 0
        func copy(_ file: LineFile, _ start: Int, _ count: Int) {
            guard count > 0 else { return }
            out += file.bytes[file.lines[start].lowerBound..<file.lines[start + count - 1].upperBound]
        }
        for region in TextMerge.combine(script1, script2, baseFile: b, oursFile: o, theirsFile: t, eager: false) {
            copy(o, next, region.i1 - next)
            switch region.mode {
            case 1: copy(o, region.i1, region.chg1)
            case 2: copy(t, region.i2, region.chg2)
            case 0:
                guard region.chg0 > 0, region.chg0 == region.chg1, region.chg0 == region.chg2 else { return nil }
                for k in 0..<region.chg0 {
                    let (bl, ol, tl) = (b.line(region.i0 + k), o.line(region.i1 + k), t.line(region.i2 + k))
                    guard let merged = changedSide(base: bl, ours: ol, theirs: tl).map(Array.init) ?? mergeLine(base: Array(bl), ours: Array(ol), theirs: Array(tl)) else { return nil }
                    out += merged
                }
            default: copy(o, region.i1, region.chg1)
            }
            next = region.i1 + region.chg1
        }
        copy(o, next, o.count - next)
        return out
    }

    /// One line both sides changed, merged by sentence; nil when they clash.
    static func mergeLine(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        func split(_ bytes: [UInt8]) -> (Sentences, ending: [UInt8])? {
            var body = bytes[...], ending: [UInt8] = []
            if body.last == 10 { body = body.dropLast(); ending = [10] }
            if body.last == 13 { body = body.dropLast(); ending.insert(13, at: 0) }
            // Only text that decodes, and only prose: a table row or a heading is merged as a line.
            guard let text = UTF8Validation.string(Array(body)), !text.isEmpty else { return nil }
            let sentences = Sentences(text)
            guard !sentences.sentences.isEmpty, !["|", "#"].contains(sentences.sentences[0].text.first ?? "|") else { return nil }
            return (sentences, ending)
        }
        guard let (b, _) = split(base), let (o, ending) = split(ours), let (t, _) = split(theirs) else { return nil }
        guard let prefix = changedSide(base: b.prefix, ours: o.prefix, theirs: t.prefix) else { return nil }
        // Each distinct sentence a number: the merge is of sequences of sentences.
        var ids: [String: Int] = [:]
        var texts: [String] = []
        func encode(_ sentences: Sentences) -> [Int] {
            sentences.sentences.map { sentence in
                if let id = ids[sentence.text] { return id }
                texts.append(sentence.text)
                ids[sentence.text] = texts.count - 1
                return texts.count - 1
            }
        }
        guard let mergedIDs = mergeSequences(base: encode(b), ours: encode(o), theirs: encode(t)) else { return nil }
        let chosen = mergedIDs.map { texts[$0] }
        // Each sentence followed by the spacing it had: ours, else theirs, else the base's.
        func spacing(after text: String) -> String? {
            for side in [o, t, b] {
                if let sentence = side.sentences.first(where: { $0.text == text }), !sentence.spacing.isEmpty { return sentence.spacing }
            }
            return nil
        }
        var line = prefix
        for (index, text) in chosen.enumerated() {
            line += text
            if index + 1 < chosen.count {
                line += spacing(after: text) ?? (text.last.map(Sentences.fullWidthStops.contains) == true ? "" : " ")
            } else {
                line += o.sentences.last?.spacing ?? ""
            }
        }
        return Array(line.utf8) + ending
    }

    /// The one value of three that a merge can take without looking inside: the side
    /// that changed it (either, when both made the same change); nil when both changed it
    /// differently.
    static func changedSide<T: Equatable>(base: T, ours: T, theirs: T) -> T? {
        if ours == base || ours == theirs { return theirs }
        return theirs == base ? ours : nil
    }

    /// A three-way merge of sequences (sentences, by number): each side's changes
    /// against the base taken where the other side changed nothing — two changes next to
    /// each other both stay (a sentence is a whole, unlike a line of a file) — and one
    /// made alike on both sides taken once. Nil when changes overlap (the same sentence
    /// changed on both sides, additions at one place from both), and when a side replaced
    /// some sentences by a different number of others: split or joined, their boundaries
    /// moved, which a merge by sentence cannot tell apart from edits.
    static func mergeSequences(base: [Int], ours: [Int], theirs: [Int]) -> [Int]? {
        func changes(_ side: [Int]) -> [LineChange]? {
            func lines(_ ids: [Int]) -> LineFile { LineFile(Array(ids.map { String($0) + "\n" }.joined().utf8)) }
            let script = LineDiff(lines(base), lines(side), algorithm: .myers).script
            return script.contains { $0.count1 > 0 && $0.count2 > 0 && $0.count1 != $0.count2 } ? nil : script
        }
        guard let mine = changes(ours), let other = changes(theirs) else { return nil }
        // Both sides' changes in base order, each with its side; a change's base range is first..<first+count1.
        var all: [(change: LineChange, from: [Int])] = mine.map { ($0, ours) } + other.map { ($0, theirs) }
        all.sort { ($0.change.first, $0.change.count1) < ($1.change.first, $1.change.count1) }
        var result: [Int] = []
        var position = 0
        var last: (change: LineChange, replacement: ArraySlice<Int>)?
        for (change, side) in all {
            let replacement = side[change.second..<change.second + change.count2]
            if let previous = last {
                // The same change on both sides: once.
                if previous.change.first == change.first, previous.change.count1 == change.count1, previous.replacement == replacement { continue }
                // Into what an earlier change replaced, or an addition where the other side added too.
                let overlaps = change.first < position || (change.count1 == 0 && previous.change.count1 == 0 && change.first == previous.change.first)
                if overlaps { return nil }
            }
            result += base[position..<change.first]
            result += replacement
            position = change.first + change.count1
            last = (change, replacement)
        }
        result += base[position...]
        return result
    }

    /// Whether a text holds a fenced code block, whose lines are not prose.
    static func hasCode(_ file: LineFile) -> Bool {
        (0..<file.count).contains { index in
            let line = file.line(index).drop { $0 == 32 }
            return line.starts(with: Array("```".utf8)) || line.starts(with: Array("~~~".utf8))
        }
    }
}
