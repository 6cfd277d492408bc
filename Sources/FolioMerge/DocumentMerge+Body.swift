import FolioFormat

extension DocumentMerge {
    /// The body's parts: the lines before the first heading, then one part per
    /// section of level 1 or 2 (deeper headings stay inside their section).
    static func sections(_ document: Document) -> [KeyedUnit<[UInt8]>] {
        let bytes = document.bytes, body = document.layout.body
        let starts = Markdown.sections(in: bytes, range: body).filter { $0.level <= 2 }
        var units: [KeyedUnit<[UInt8]>] = []
        let firstStart = starts.first?.headingRange.lowerBound ?? body.upperBound
        if firstStart > body.lowerBound || starts.isEmpty {
            units.append(KeyedUnit(key: preambleKey, content: Array(bytes[body.lowerBound..<firstStart])))
        }
        let keys = KeyedMerge.uniqueKeys(starts.map { "section:" + $0.title.lowercased() })
        for (index, section) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].headingRange.lowerBound : body.upperBound
            units.append(KeyedUnit(key: keys[index], content: Array(bytes[section.headingRange.lowerBound..<end])))
        }
        return units
    }

    /// `side`'s sections, a renamed one known by its base heading: a section whose
    /// heading the base does not have is the base section (at the same level) that
    /// `side` no longer has whose body mostly survives in it — at least half of the base
    /// section's non-blank body lines are lines of it — the one keeping most, each base
    /// section taken once. So `## Steps` renamed `## Method` is the same section, and an
    /// edit under it on the other side merges.
    static func renamed(_ side: [KeyedUnit<[UInt8]>], from base: [KeyedUnit<[UInt8]>]) -> [KeyedUnit<[UInt8]>] {
        let sideKeys = Set(side.map(\.key)), baseKeys = Set(base.map(\.key))
        var gone = base.filter { !sideKeys.contains($0.key) && $0.key != preambleKey }
        var result = side
        for index in result.indices where !baseKeys.contains(result[index].key) && result[index].key != preambleKey {
            let (level, lines) = headingLevelAndBody(result[index].content)
            let kept = gone.enumerated().compactMap { offset, unit -> (Int, Int)? in
                let (baseLevel, baseLines) = headingLevelAndBody(unit.content)
                guard baseLevel == level, !baseLines.isEmpty else { return nil }
                var left = lines
                var count = 0
                for line in baseLines {
                    if let at = left.firstIndex(of: line) {
                        left.remove(at: at)
                        count += 1
                    }
                }
                return count * 2 >= baseLines.count ? (offset, count) : nil
            }
            guard let best = kept.max(by: { $0.1 < $1.1 }) else { continue }
            result[index].key = gone[best.0].key
            gone.remove(at: best.0)
        }
        return result
    }

    /// A section's heading level (its `#`s) and its non-blank body lines.
    static func headingLevelAndBody(_ bytes: [UInt8]) -> (Int, [ArraySlice<UInt8>]) {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let level = lines.first?.prefix { $0 == 35 }.count ?? 0
        let body = lines.dropFirst().map { line in line.last == 13 ? line.dropLast() : line }.filter { !$0.allSatisfy { $0 == 32 || $0 == 9 } }
        return (level, Array(body))
    }

    /// The body merged section by section; a section both sides changed is merged
    /// list item by list item when it holds a list, else line by line.
    static func mergeBody(base: Document, ours: Document, theirs: Document, ending: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        let b = sections(base)
        let (o, t) = (renamed(sections(ours), from: b), renamed(sections(theirs), from: b))
        // Both sides moved sections, differently: which order is meant is a person's call.
        let (baseOrder, ourOrder, theirOrder) = KeyedMerge.commonOrders(b, o, t)
        if ourOrder != baseOrder, theirOrder != baseOrder, ourOrder != theirOrder {
            func body(_ document: Document) -> [UInt8] { Array(document.bytes[document.layout.body]) }
            return [.conflict(ours: body(ours), base: body(base), theirs: body(theirs))]
        }
        let merged = KeyedMerge.merge(base: b, ours: o, theirs: t) { _, _, _ in nil }
        for unit in merged {
            switch unit.content {
            case .clean(let bytes): pieces.append(.clean(bytes))
            case .conflict(let o, let b, let t):
                guard let o, let t else {
                    // Removed on one side, changed on the other: the whole section is the conflict.
                    pieces.append(.conflict(ours: o ?? [], base: b ?? [], theirs: t ?? []))
                    continue
                }
                pieces += mergeSection(base: b ?? [], ours: o, theirs: t)
            }
        }
        return pieces
    }

    /// A section's lines cut into: the lines before its first list item, each item
    /// (with the lines up to the next item), and the lines after the last item.
    static func listParts(_ bytes: [UInt8]) -> [KeyedUnit<[UInt8]>]? {
        let items = Markdown.listItems(in: bytes, range: 0..<bytes.count)
        guard !items.isEmpty else { return nil }
        func lineEnd(_ offset: Int) -> Int {
            var i = offset
            while i < bytes.count && bytes[i] != 10 { i += 1 }
            return min(i + 1, bytes.count)
        }
        var units: [KeyedUnit<[UInt8]>] = [KeyedUnit(key: "\u{1}head", content: Array(bytes[0..<items[0].range.lowerBound]))]
        let keys = KeyedMerge.uniqueKeys(items.map { "item:" + $0.text.lowercased() })
        for (index, item) in items.enumerated() {
            let end = index + 1 < items.count ? items[index + 1].range.lowerBound : lineEnd(item.range.upperBound)
            units.append(KeyedUnit(key: keys[index], content: Array(bytes[item.range.lowerBound..<end])))
        }
        units.append(KeyedUnit(key: "\u{1}tail", content: Array(bytes[lineEnd(items.last!.range.upperBound)...])))
        return units
    }

    /// A section both sides changed: item by item when all three versions hold a
    /// list (items both sides changed merged line by line), else line by line;
    /// conflicts are as small as the item or the lines. Items are compared without
    /// their numbers, so a list renumbered because an item came or went elsewhere is
    /// not an edit; the result is numbered once, as our side numbers
    /// (``ListNumbering``).
    static func mergeSection(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [Piece] {
        guard let o = listParts(ours), let t = listParts(theirs) else { return lineMerge(base: base, ours: ours, theirs: theirs) }
        let b = listParts(base) ?? [KeyedUnit(key: "\u{1}head", content: base)]
        func unnumbered(_ units: [KeyedUnit<[UInt8]>]) -> [KeyedUnit<ListItemText>] {
            units.map { KeyedUnit(key: $0.key, content: $0.key.hasPrefix("item:") ? ListItemText($0.content) : ListItemText(unnumbered: $0.content, number: nil)) }
        }
        let merged = KeyedMerge.merge(base: unnumbered(b), ours: unnumbered(o), theirs: unnumbered(t), alignReplacements: true) { b, o, t in
            let text = TextMerge.merge(base: b?.unnumbered ?? [], ours: o.unnumbered, theirs: t.unnumbered)
            if text.conflicts == 0 { return ListItemText(unnumbered: text.bytes, number: o.number) }
            // An item is prose too: two edits of different sentences of one step both stay.
            guard let b, let prose = ProseMerge.merge(base: b.unnumbered, ours: o.unnumbered, theirs: t.unnumbered) else { return nil }
            return ListItemText(unnumbered: prose, number: o.number)
        }
        // The list as our side numbers it, at the indent of its first numbered item; nested
        // items keep their own numbers.
        let ourItems = o.filter { $0.key.hasPrefix("item:") }.map { ListItemText($0.content) }.filter { $0.number != nil }
        let indent = ourItems.first?.indent ?? 0
        var numbering = ListNumbering(ourItems.filter { $0.indent == indent }.compactMap(\.number))
        func isListed(_ item: ListItemText?, _ key: String) -> Bool {
            key.hasPrefix("item:") && item?.number != nil && item?.indent == indent
        }
        return merged.map { unit in
            switch unit.content {
            case .clean(let item):
                guard isListed(item, unit.key) else { return .clean(item.written) }
                return .clean(item.numbered(numbering.next(item.number)))
            case .conflict(let o, let b, let t):
                if isListed(o ?? t, unit.key) { _ = numbering.next(nil) }
                return .conflict(ours: o?.written ?? [], base: b?.written ?? [], theirs: t?.written ?? [])
            }
        }
    }

    /// Lines merged as `git merge-file` would; where that clashes, prose merged by
    /// sentence (``ProseMerge``); what still clashes is one conflict.
    static func lineMerge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [Piece] {
        let result = TextMerge.merge(base: base, ours: ours, theirs: theirs)
        guard result.conflicts > 0 else { return [.clean(result.bytes)] }
        if let merged = ProseMerge.merge(base: base, ours: ours, theirs: theirs) { return [.clean(merged)] }
        return [.conflict(ours: ours, base: base, theirs: theirs)]
    }
}
