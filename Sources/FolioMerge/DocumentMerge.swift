import FolioFormat

/// How a document merge shows what it cannot reconcile.
public enum ConflictPolicy: Sendable, Hashable {
    /// git-style markers around the smallest conflicting region: a front-matter key's
    /// lines, a list item, a section's block of lines.
    case markers
    /// Our value for each conflicting part; their whole version is returned as
    /// ``DocumentMergeResult/conflictCopy``, to be saved beside the file.
    case copy
}

/// What a document merge produced.
public struct DocumentMergeResult: Sendable, Hashable {
    /// The merged bytes.
    public var bytes: [UInt8]
    /// How many conflicts there were (marked in ``bytes``, or resolved to our side with ``conflictCopy`` set).
    public var conflicts: Int
    /// Their whole version, when the copy policy left conflicts for the user to compare.
    public var conflictCopy: [UInt8]?
    /// Whether the documents were merged by structure (false: line by line, because
    /// a version did not parse or the structural result did not check out).
    public var structural: Bool
}

/// The three-way merge of Markdown documents with YAML front matter that understands
/// them: front matter key by key (lists as lists, list items of maps field by field),
/// the body section by section (a section's list items as units), then line by line.
/// Everything not merged keeps its bytes; a result that does not parse back to the
/// merged values is never returned as clean — the line merge is used instead.
public enum DocumentMerge {
    /// One part of the output: merged bytes, or a conflict.
    enum Piece: Equatable {
        case clean([UInt8])
        case conflict(ours: [UInt8], base: [UInt8], theirs: [UInt8])
    }

    /// Merges `ours` and `theirs`, two descendants of `base`.
    public static func merge(
        base: [UInt8], ours: [UInt8], theirs: [UInt8], options: MergeOptions = MergeOptions(), policy: ConflictPolicy = .markers
    ) -> DocumentMergeResult {
        // A probe: documents that do not parse (or a merge the structure cannot make) fall back to the line merge below, which marks any conflict.
        if let structural = try? structuralMerge(base: base, ours: ours, theirs: theirs, options: options, policy: policy) {
            return structural
        }
        var lineOptions = options
        if policy == .copy && options.favor == .none { lineOptions.favor = .ours }
        var text = TextMerge.merge(base: base, ours: ours, theirs: theirs, options: options)
        // Documents that all parse never merge "cleanly" into one that does not: then
        // the whole of both versions is the conflict.
        // Probes: whether each version parses decides only how a conflict is shown; a version that does not parse is no error here.
        let allParse = [base, ours, theirs].allSatisfy { (try? Document(bytes: $0)) != nil }
        if allParse && text.conflicts == 0 && (try? Document(bytes: text.bytes)) == nil {
            let ending = (try? Document(bytes: ours))?.layout.lineEnding.rawValue.utf8.map { $0 } ?? [10]
            let whole = render([.conflict(ours: ours, base: base, theirs: theirs)], options: options, favor: lineOptions.favor, ending: ending)
            text = MergeResult(bytes: whole, conflicts: 1)
            if policy == .copy { return DocumentMergeResult(bytes: ours, conflicts: 1, conflictCopy: theirs, structural: false) }
        }
        if policy == .copy && text.conflicts > 0 {
            let resolved = TextMerge.merge(base: base, ours: ours, theirs: theirs, options: lineOptions)
            return DocumentMergeResult(bytes: resolved.bytes, conflicts: text.conflicts, conflictCopy: theirs, structural: false)
        }
        return DocumentMergeResult(bytes: text.bytes, conflicts: text.conflicts, conflictCopy: nil, structural: false)
    }

    struct Unmergeable: Error {}

    static func structuralMerge(
        base: [UInt8], ours: [UInt8], theirs: [UInt8], options: MergeOptions, policy: ConflictPolicy
    ) throws -> DocumentMergeResult {
        let o = try Document(bytes: ours), b = try Document(bytes: base), t = try Document(bytes: theirs)
        // Only block-mapping front matter is merged by key; anything else goes line by line.
        for document in [o, b, t] {
            if let root = document.frontMatter.root, root.collectionStyle != .block, root.value != .null { throw Unmergeable() }
        }
        let ending = o.layout.lineEnding.rawValue.utf8.map { $0 }
        func normalized(_ document: Document) throws -> Document {
            guard document.layout.lineEnding != o.layout.lineEnding else { return document }
            return try Document(bytes: convertLineEndings(document.bytes, to: ending))
        }
        let nb = try normalized(b), nt = try normalized(t)

        var pieces: [Piece] = []
        // The BOM and the opening line are ours.
        let hasFrontMatter = o.layout.hasFrontMatter || nt.layout.hasFrontMatter
        if o.layout.hasBOM { pieces.append(.clean([0xEF, 0xBB, 0xBF])) }
        var expectedFields: YAMLMapping?
        var listEdits: [(key: String, value: YAMLValue)] = []
        if hasFrontMatter {
            pieces.append(.clean(Array("---".utf8) + ending))
            let front = try mergeFrontMatter(base: nb, ours: o, theirs: nt)
            pieces += front.pieces
            expectedFields = front.fields
            listEdits = front.edits
            pieces.append(.clean(Array("---".utf8) + ending))
        }
        pieces += mergeBody(base: nb, ours: o, theirs: nt, ending: ending)

        let conflicts = pieces.filter { if case .conflict = $0 { return true } else { return false } }.count
        var favor = options.favor
        if policy == .copy && favor == .none { favor = .ours }
        var bytes = render(pieces, options: options, favor: favor, ending: ending)
        if conflicts == 0 || favor != .none {
            // Lists merged as values: write them into the merged document with minimal edits.
            if !listEdits.isEmpty {
                var document = try Document(bytes: bytes)
                for edit in listEdits { try apply(edit.value, forKey: edit.key, to: &document) }
                bytes = document.bytes
            }
            // A clean structural merge must read back as exactly the merged values.
            if conflicts == 0 {
                let check = try Document(bytes: bytes)
                if let expectedFields, check.fields != expectedFields { throw Unmergeable() }
            }
        }
        let reported = favor == .none || policy == .copy ? conflicts : 0
        return DocumentMergeResult(
            bytes: bytes, conflicts: reported, conflictCopy: policy == .copy && conflicts > 0 ? theirs : nil, structural: true)
    }

    /// The pieces written out: conflicts between markers (or resolved by `favor`).
    static func render(_ pieces: [Piece], options: MergeOptions, favor: MergeOptions.Favor, ending: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        func marker(_ character: UInt8, _ label: String?) {
            out += repeatElement(character, count: options.markerSize > 0 ? options.markerSize : 7)
            if let label { out += [32] + Array(label.utf8) }
            out += ending
        }
        func side(_ bytes: [UInt8]) {
            out += bytes
            if !bytes.isEmpty && bytes.last != 10 { out += ending }
        }
        for piece in pieces {
            switch piece {
            case .clean(let bytes): out += bytes
            case .conflict(let ours, let base, let theirs):
                switch favor {
                case .ours: out += ours
                case .theirs: out += theirs
                case .union:
                    side(ours)
                    out += theirs
                case .none:
                    marker(60, options.oursLabel)
                    side(ours)
                    if options.showBase {
                        marker(124, options.baseLabel)
                        side(base)
                    }
                    marker(61, nil)
                    side(theirs)
                    marker(62, options.theirsLabel)
                }
            }
        }
        return out
    }

    static func convertLineEndings(_ bytes: [UInt8], to ending: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == 13 && index + 1 < bytes.count && bytes[index + 1] == 10 { continue }
            if byte == 10 { out += ending } else { out.append(byte) }
        }
        return out
    }
}
