import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioMerge

/// The document merge on the edits the issue names, each with the exact result.
@Suite struct DocumentMergeTests {
    static let base = """
        ---
        title: Carbonara
        time: 15m
        servings: 2
        tags: [pasta, italian]
        ingredients:
          - name: spaghetti
            quantity: 400g
          - name: guanciale
            quantity: 150g
        ---
        Con uova.

        ## Ingredients
        - 400g spaghetti
        - 150g guanciale

        ## Steps
        1. Boil the pasta.
        2. Fry the guanciale.

        """

    func merge(_ ours: String, _ theirs: String, base: String = DocumentMergeTests.base, policy: ConflictPolicy = .markers) -> DocumentMergeResult {
        DocumentMerge.merge(
            base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8),
            options: MergeOptions(oursLabel: "ours", baseLabel: "base", theirsLabel: "theirs"), policy: policy)
    }

    func text(_ result: DocumentMergeResult) -> String { String(decoding: result.bytes, as: UTF8.self) }

    @Test func adjacentFieldEditsBothLand() {
        let ours = Self.base.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        let theirs = Self.base.replacingOccurrences(of: "servings: 2", with: "servings: 4")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 0 && result.structural)
        #expect(text(result) == Self.base.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4"))
        // git conflicts on the same pair.
        #expect(TextMerge.merge(base: Array(Self.base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8)).conflicts == 1)
    }

    @Test func ingredientsAddedAtTheEndOnBothSidesAreBothKept() {
        let ours = Self.base
            .replacingOccurrences(of: "    quantity: 150g\n---", with: "    quantity: 150g\n  - name: pecorino\n    quantity: 50g\n---")
            .replacingOccurrences(of: "- 150g guanciale\n", with: "- 150g guanciale\n- 50g pecorino\n")
        let theirs = Self.base
            .replacingOccurrences(of: "    quantity: 150g\n---", with: "    quantity: 150g\n  - name: eggs\n    quantity: \"4\"\n---")
            .replacingOccurrences(of: "- 150g guanciale\n", with: "- 150g guanciale\n- 4 eggs\n")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 0)
        #expect(text(result) == Self.base
            .replacingOccurrences(of: "    quantity: 150g\n---", with: "    quantity: 150g\n  - name: pecorino\n    quantity: 50g\n  - name: eggs\n    quantity: \"4\"\n---")
            .replacingOccurrences(of: "- 150g guanciale\n", with: "- 150g guanciale\n- 50g pecorino\n- 4 eggs\n"))
    }

    @Test func tagsAddedOnBothSidesAreBothKept() {
        let ours = Self.base.replacingOccurrences(of: "tags: [pasta, italian]", with: "tags: [pasta, italian, quick]")
        let theirs = Self.base.replacingOccurrences(of: "tags: [pasta, italian]", with: "tags: [pasta, italian, roman]")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 0)
        #expect(text(result) == Self.base.replacingOccurrences(of: "tags: [pasta, italian]", with: "tags: [pasta, italian, quick, roman]"))
    }

    @Test func stepsAddedInARowAreRenumbered() {
        let ours = Self.base.replacingOccurrences(of: "2. Fry the guanciale.\n", with: "2. Fry the guanciale.\n3. Mix with eggs.\n")
        let theirs = Self.base.replacingOccurrences(of: "2. Fry the guanciale.\n", with: "2. Fry the guanciale.\n3. Add pepper.\n")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 0)
        #expect(text(result) == Self.base.replacingOccurrences(
            of: "2. Fry the guanciale.\n", with: "2. Fry the guanciale.\n3. Mix with eggs.\n4. Add pepper.\n"))
    }

    @Test func bothRetitlingIsAConflictAroundThatKeyOnly() {
        let ours = Self.base.replacingOccurrences(of: "title: Carbonara", with: "title: Carbonara vera")
        let theirs = Self.base.replacingOccurrences(of: "title: Carbonara", with: "title: Spaghetti alla carbonara")
            .replacingOccurrences(of: "time: 15m", with: "time: 25m")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 1)
        #expect(text(result) == Self.base.replacingOccurrences(
            of: "title: Carbonara\ntime: 15m", with: "<<<<<<< ours\ntitle: Carbonara vera\n=======\ntitle: Spaghetti alla carbonara\n>>>>>>> theirs\ntime: 25m"))
        let copy = merge(ours, theirs, policy: .copy)
        #expect(copy.conflicts == 1)
        #expect(text(copy) == Self.base.replacingOccurrences(of: "title: Carbonara\ntime: 15m", with: "title: Carbonara vera\ntime: 25m"))
        #expect(copy.conflictCopy == Array(theirs.utf8))
    }

    @Test func removalsAdditionsAndIdenticalEdits() {
        let ours = Self.base.replacingOccurrences(of: "servings: 2\n", with: "").replacingOccurrences(of: "time: 15m", with: "time: 20m\nsource: nonna")
        let theirs = Self.base.replacingOccurrences(of: "time: 15m", with: "time: 20m\nrating: 5")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 0)
        #expect(text(result) == Self.base.replacingOccurrences(of: "servings: 2\n", with: "")
            .replacingOccurrences(of: "time: 15m", with: "time: 20m\nsource: nonna\nrating: 5"))
    }

    @Test func aRemovedItemAndAChangedFieldOfAnother() {
        let ours = Self.base.replacingOccurrences(of: "  - name: spaghetti\n    quantity: 400g\n", with: "")
        let theirs = Self.base.replacingOccurrences(of: "quantity: 150g", with: "quantity: 200g")
        let result = merge(ours, theirs)
        #expect(result.conflicts == 0)
        #expect(text(result) == ours.replacingOccurrences(of: "quantity: 150g", with: "quantity: 200g"))
    }

    @Test func sectionsWithTheSameOrLookalikeNamesKeepTheirOwnContent() {
        let base = "---\ntitle: T\n---\n## Notes\none\n## Notes\ntwo\n## Notes#2\nthree\n"
        let ours = base.replacingOccurrences(of: "one", with: "uno")
        let theirs = base.replacingOccurrences(of: "three", with: "tre")
        let result = merge(ours, theirs, base: base)
        #expect(result.conflicts == 0)
        #expect(text(result) == "---\ntitle: T\n---\n## Notes\nuno\n## Notes\ntwo\n## Notes#2\ntre\n")
    }

    @Test func lineEndingsAndBOMAreKept() {
        let crlf = "\u{FEFF}" + Self.base.replacingOccurrences(of: "\n", with: "\r\n")
        let ours = crlf.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        let theirs = crlf.replacingOccurrences(of: "servings: 2", with: "servings: 4")
        let result = merge(ours, theirs, base: crlf)
        #expect(result.conflicts == 0)
        #expect(text(result) == crlf.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4"))
    }

    @Test func aVersionThatDoesNotParseFallsBackToTheLineMerge() {
        let broken = Self.base.replacingOccurrences(of: "title: Carbonara", with: "title: \"Carbonara")
        let theirs = Self.base.replacingOccurrences(of: "Con uova.", with: "Con uova e pecorino.")
        let result = merge(broken, theirs)
        #expect(!result.structural)
        #expect(result.bytes == TextMerge.merge(base: Array(Self.base.utf8), ours: Array(broken.utf8), theirs: Array(theirs.utf8)).bytes)
        #expect(result.conflicts == 0)
    }
}

/// The document merge on seeded random line edits of every Fixtures/ and corpus
/// record: it never fails, and documents that all parse never merge "cleanly" into
/// one that does not.
@Suite struct DocumentMergePropertyTests {
    @Test func randomEditsOfRealRecordsNeverMergeCleanlyIntoBrokenDocuments() throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let files = try Corpora.recordFiles().map { try Corpora.bytes($0) }
        #expect(!files.isEmpty)
        var structural = 0, runs = 0
        for _ in 0..<600 {
            let base = files.randomElement(using: &random)!
            let lines = String(decoding: base, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
            func edited() -> [UInt8] {
                var copy = lines
                for _ in 0..<Int.random(in: 1...3, using: &random) where !copy.isEmpty {
                    let at = Int.random(in: 0..<copy.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: copy.remove(at: at)
                    case 1: copy.insert(copy.randomElement(using: &random)!, at: at)
                    default: copy[at] = "- added \(Int.random(in: 0...99, using: &random))\n"
                    }
                }
                return Array(copy.joined().utf8)
            }
            let ours = edited(), theirs = edited()
            let result = DocumentMerge.merge(base: base, ours: ours, theirs: theirs)
            runs += 1
            if result.structural { structural += 1 }
            let allParse = [base, ours, theirs].allSatisfy { (try? Document(bytes: $0)) != nil }
            if allParse && result.conflicts == 0 {
                #expect((try? Document(bytes: result.bytes)) != nil, "seed \(seed): a clean merge that does not parse:\n\(String(decoding: result.bytes, as: UTF8.self))")
            }
        }
        #expect(structural > runs / 4, "seed \(seed): only \(structural) of \(runs) merged by structure")
    }
}
