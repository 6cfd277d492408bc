import Testing
@testable import FolioFormat
@testable import FolioMerge

/// Sections known by identity, not by heading text alone: a renamed heading whose
/// body survives, a section moved on one side; each with the near miss that must stay
/// a conflict.
@Suite struct SectionIdentityTests {
    static let soup = """
        ---
        title: Soup
        ---
        Intro.

        ## Steps
        1. Soak the beans.
        2. Cook them.
        3. Add the kale.

        ## Notes
        - Keeps two days.
        - Freezes well.

        ## Serving
        Warm, with oil.

        """

    @Test func aRenamedHeadingIsTheSameSectionWhenItsBodySurvives() {
        let ours = Self.soup.replacingOccurrences(of: "## Steps", with: "## Method")
        let theirs = Self.soup.replacingOccurrences(of: "3. Add the kale.", with: "3. Add the kale and the bread.")
        let merged = documentMerge(Self.soup, ours, theirs)
        #expect(merged.conflicts == 0)
        #expect(merged.text == Self.soup.replacingOccurrences(of: "## Steps", with: "## Method").replacingOccurrences(of: "3. Add the kale.", with: "3. Add the kale and the bread."))
        // The same the other way round.
        #expect(documentMerge(Self.soup, theirs, ours).text == merged.text)
    }

    @Test func aHeadingRenamedTwiceOrRewrittenIsNoMerge() {
        let theirs = Self.soup.replacingOccurrences(of: "3. Add the kale.", with: "3. Add the kale and the bread.")
        // Renamed differently on both sides: a conflict.
        #expect(documentMerge(Self.soup, Self.soup.replacingOccurrences(of: "## Steps", with: "## Method"),
                      Self.soup.replacingOccurrences(of: "## Steps", with: "## How")).conflicts == 1)
        // Renamed with most of its body rewritten: another section; the edit of the old one conflicts with its removal.
        let rewritten = Self.soup.replacingOccurrences(of: "## Steps\n1. Soak the beans.\n2. Cook them.\n", with: "## Method\n1. Use tinned beans.\n2. Warm them.\n")
        #expect(documentMerge(Self.soup, rewritten, theirs).conflicts == 1)
    }

    static func moved(_ text: String) -> String {
        // Notes above Steps.
        text.replacingOccurrences(of: "## Steps\n1. Soak the beans.\n2. Cook them.\n3. Add the kale.\n\n## Notes\n- Keeps two days.\n- Freezes well.\n\n",
                                  with: "## Notes\n- Keeps two days.\n- Freezes well.\n\n## Steps\n1. Soak the beans.\n2. Cook them.\n3. Add the kale.\n\n")
    }

    @Test func aSectionMovedOnOneSideKeepsTheMoveAndTheOthersEdits() {
        let edited = Self.soup.replacingOccurrences(of: "- Freezes well.", with: "- Freezes well for a month.")
        let expected = Self.moved(Self.soup).replacingOccurrences(of: "- Freezes well.", with: "- Freezes well for a month.")
        #expect(Self.moved(Self.soup) != Self.soup)
        let ourMove = documentMerge(Self.soup, Self.moved(Self.soup), edited)
        #expect(ourMove.conflicts == 0 && ourMove.text == expected, "\(ourMove.text)")
        let theirMove = documentMerge(Self.soup, edited, Self.moved(Self.soup))
        #expect(theirMove.conflicts == 0 && theirMove.text == expected, "\(theirMove.text)")
    }

    @Test func sectionsMovedDifferentlyOnBothSidesConflict() {
        // Ours puts Notes first; theirs puts Serving first.
        let theirs = Self.soup.replacingOccurrences(of: "## Serving\nWarm, with oil.\n", with: "")
            .replacingOccurrences(of: "Intro.\n\n", with: "Intro.\n\n## Serving\nWarm, with oil.\n\n")
        #expect(documentMerge(Self.soup, Self.moved(Self.soup), theirs).conflicts == 1)
        // Both moving it the same way is one move.
        #expect(documentMerge(Self.soup, Self.moved(Self.soup), Self.moved(Self.soup)).text == Self.moved(Self.soup))
    }
}
