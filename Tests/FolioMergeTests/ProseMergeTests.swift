import Testing
@testable import FolioFormat
@testable import FolioMerge

/// Prose merged by sentence, and multi-line values both sides extend: each pattern
/// with the near miss that must stay a conflict.
@Suite struct ProseMergeTests {
    static let ribollita = """
        ---
        title: Ribollita
        ---
        A Tuscan soup. It was born as a way to use bread. Today it is served in trattorias. Eat it warm.

        ## Steps
        1. Soak the beans. Cook them slowly.
        2. Add the bread.

        """

    @Test func twoSentencesOfOneParagraphEditedOnEachSideBothStay() {
        let ours = Self.ribollita.replacingOccurrences(of: "to use bread.", with: "to use yesterday's bread.")
        let theirs = Self.ribollita.replacingOccurrences(of: "in trattorias.", with: "in every Florentine trattoria.")
        let merged = documentMerge(Self.ribollita, ours, theirs)
        #expect(merged.conflicts == 0)
        #expect(merged.text.contains("A Tuscan soup. It was born as a way to use yesterday's bread. Today it is served in every Florentine trattoria. Eat it warm.\n"))
        // In a step too (a list item), and in Italian with an emoji.
        let step = documentMerge(Self.ribollita, Self.ribollita.replacingOccurrences(of: "Soak the beans.", with: "Soak the beans overnight."),
                         Self.ribollita.replacingOccurrences(of: "Cook them slowly.", with: "Cook them slowly, with sage."))
        #expect(step.conflicts == 0 && step.text.contains("1. Soak the beans overnight. Cook them slowly, with sage.\n"))
        let italian = "---\ntitle: Pappa\n---\nBuonissima! 😋 Si serve tiepida. Perché no?\n"
        let both = documentMerge(italian, italian.replacingOccurrences(of: "Buonissima!", with: "Buonissima davvero!"),
                         italian.replacingOccurrences(of: "Si serve tiepida.", with: "Si serve tiepida, con l'olio."))
        #expect(both.conflicts == 0 && both.text.hasSuffix("Buonissima davvero! 😋 Si serve tiepida, con l'olio. Perché no?\n"))
    }

    @Test func theSameSentenceChangedOnBothSidesStaysAConflict() {
        let ours = Self.ribollita.replacingOccurrences(of: "in trattorias.", with: "in every trattoria.")
        let theirs = Self.ribollita.replacingOccurrences(of: "in trattorias.", with: "in Florence.")
        #expect(documentMerge(Self.ribollita, ours, theirs).conflicts == 1)
        // Both add a sentence at the same place: a conflict too.
        let addOurs = Self.ribollita.replacingOccurrences(of: "Eat it warm.", with: "Eat it warm. Or cold.")
        let addTheirs = Self.ribollita.replacingOccurrences(of: "Eat it warm.", with: "Eat it warm. With oil.")
        #expect(documentMerge(Self.ribollita, addOurs, addTheirs).conflicts == 1)
    }

    @Test func aChangeThatMovesSentenceBoundariesFallsBackToTheLineMerge() {
        // Ours joins two sentences into one; theirs edits another: the line merge's conflict stands.
        let ours = Self.ribollita.replacingOccurrences(of: "A Tuscan soup. It was born", with: "A Tuscan soup, born")
        let theirs = Self.ribollita.replacingOccurrences(of: "Eat it warm.", with: "Eat it hot.")
        #expect(documentMerge(Self.ribollita, ours, theirs).conflicts == 1)
    }

    @Test func aTableCellStaysAConflict() {
        let base = "---\ntitle: T\n---\n| a | b |\n|---|---|\n| 1. x | 2. y |\n"
        let ours = base.replacingOccurrences(of: "1. x", with: "1. xx"), theirs = base.replacingOccurrences(of: "2. y", with: "2. yy")
        #expect(documentMerge(base, ours, theirs).conflicts == 1)
    }

    static let description = """
        ---
        title: Panzanella
        description: |
          Bread and tomatoes.
          A summer salad.
        servings: 4
        ---
        Body.

        """

    @Test func linesBothSidesAppendToABlockScalarAreAllKept() {
        let ours = Self.description.replacingOccurrences(of: "  A summer salad.\n", with: "  A summer salad.\n  Best the next day.\n")
        let theirs = Self.description.replacingOccurrences(of: "  A summer salad.\n", with: "  A summer salad.\n  Use stale bread.\n")
        let merged = documentMerge(Self.description, ours, theirs)
        #expect(merged.conflicts == 0)
        #expect(merged.text == Self.description.replacingOccurrences(of: "  A summer salad.\n", with: "  A summer salad.\n  Best the next day.\n  Use stale bread.\n"))
        // The style stays: a `>-` block keeps its indicator and indentation.
        let folded = Self.description.replacingOccurrences(of: "description: |\n  ", with: "description: >-\n    ").replacingOccurrences(of: "\n  A summer", with: "\n    A summer")
        let foldedMerge = documentMerge(folded, folded.replacingOccurrences(of: "    A summer salad.\n", with: "    A summer salad.\n    Best cold.\n"),
                                folded.replacingOccurrences(of: "    Bread and tomatoes.\n", with: "    Bread, tomatoes.\n"))
        #expect(foldedMerge.conflicts == 0 && foldedMerge.text.contains("description: >-\n    Bread, tomatoes.\n    A summer salad.\n    Best cold.\n"))
    }

    @Test func theSameLineOfABlockScalarChangedOnBothSidesStaysAConflict() {
        let ours = Self.description.replacingOccurrences(of: "A summer salad.", with: "A summer dish.")
        let theirs = Self.description.replacingOccurrences(of: "A summer salad.", with: "A cold salad.")
        #expect(documentMerge(Self.description, ours, theirs).conflicts == 1)
    }
}
