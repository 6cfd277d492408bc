import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioMerge

/// The harder edits two people make to one recipe, each written out with the outcome a
/// careful person would give: the exact merged file, or a conflict that keeps both
/// sides' text. Grouped in families (multi-line values, numbered lists, reorders, an
/// item deleted on one side and edited on the other, nested maps, flow lists, style
/// changes, comments, CRLF files) and tallied side by side with `git merge-file`.
@Suite struct MergeScenarioTests {
    enum Outcome {
        /// Merges cleanly into exactly this text.
        case clean(String)
        /// Conflicts, and the output holds each of these (both sides' text).
        case conflict(keeping: [String])
    }

    struct Scenario {
        var family: String
        var name: String
        var base: String
        var ours: String
        var theirs: String
        var outcome: Outcome
    }

    static let recipe = """
        ---
        title: Tomato soup
        time: 30m  # quick
        servings: 4
        tags: [soup, tomato, easy]
        nutrition:
          calories: 220
          protein: 6g
        ingredients:
          - name: tomatoes
            quantity: 800g
          - name: onion
            quantity: 1
          - name: olive oil
            quantity: 2 tbsp
        description: |
          A bright soup for late summer.
          Use the ripest tomatoes you can find.
          It keeps for three days in the fridge.
          Serve it warm, never boiling.
        note: >
          Good with bread,
          better with friends,
          best on a cold day.
        quote: "Soup is a song
          sung by the stove,
          slowly."
        ---
        Our family's soup.

        ## Ingredients
        - 800g tomatoes
        - 1 onion
        - 2 tbsp olive oil
        - salt

        ## Steps
        1. Chop the onion.
        2. Soften it in the oil.
        3. Add the tomatoes.
        4. Simmer for twenty minutes.
        5. Blend until smooth.

        """

    /// `text` with each replacement made once; a replacement whose text is not there is
    /// a mistake in the scenario, reported as such.
    static func edit(_ text: String, _ replacements: [(String, String)], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        var text = text
        for (from, to) in replacements {
            guard let range = text.range(of: from) else {
                Issue.record("scenario text not found: \(from)", sourceLocation: sourceLocation)
                continue
            }
            text.replaceSubrange(range, with: to)
        }
        return text
    }

    /// A scenario where each side makes its replacements in `base` and the merge must
    /// hold both (`merged`: the replacements of the expected file, when it is not just
    /// both sides' replacements made one after the other).
    static func both(
        _ family: String, _ name: String, base: String = recipe, ours: [(String, String)], theirs: [(String, String)],
        merged: [(String, String)]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Scenario {
        Scenario(
            family: family, name: name, base: base, ours: edit(base, ours, sourceLocation: sourceLocation),
            theirs: edit(base, theirs, sourceLocation: sourceLocation),
            outcome: .clean(edit(base, merged ?? ours + theirs, sourceLocation: sourceLocation)))
    }

    /// A scenario that must conflict, keeping `keeping` (by default each side's new text).
    static func clash(
        _ family: String, _ name: String, base: String = recipe, ours: [(String, String)], theirs: [(String, String)],
        keeping: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Scenario {
        Scenario(
            family: family, name: name, base: base, ours: edit(base, ours, sourceLocation: sourceLocation),
            theirs: edit(base, theirs, sourceLocation: sourceLocation),
            outcome: .conflict(keeping: keeping ?? (ours + theirs).map(\.1).filter { !$0.isEmpty }))
    }

    static let steps = "1. Chop the onion.\n2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.\n"
    static let lazySteps = "1. Chop the onion.\n1. Soften it in the oil.\n1. Add the tomatoes.\n1. Simmer for twenty minutes.\n1. Blend until smooth.\n"

    static var scenarios: [Scenario] {
        let crlf = recipe.replacingOccurrences(of: "\n", with: "\r\n")
        let lazy = edit(recipe, [(steps, lazySteps)])
        return [
            // Multi-line values: the value's lines merged as git merges a file's.
            both("multi-line values", "literal block: first line and last line",
                 ours: [("A bright soup", "A bright, quick soup")], theirs: [("Serve it warm, never boiling.", "Serve it hot, never boiling.")]),
            both("multi-line values", "literal block: line added at the top and at the end",
                 ours: [("description: |\n  A bright", "description: |\n  Our favourite.\n  A bright")],
                 theirs: [("never boiling.\n", "never boiling.\n  Freezes well.\n")]),
            both("multi-line values", "folded block: first line and last line",
                 ours: [("Good with bread,", "Good with warm bread,")], theirs: [("best on a cold day.", "best on a rainy day.")]),
            both("multi-line values", "multi-line quoted string: first and last line",
                 ours: [("\"Soup is a song", "\"Soup is a quiet song")], theirs: [("  slowly.\"", "  very slowly.\"")]),
            both("multi-line values", "strip chomping kept, lines edited apart",
                 base: edit(recipe, [("description: |", "description: |-")]),
                 ours: [("A bright soup", "A red soup")], theirs: [("never boiling.", "never boiling, ever.")]),
            both("multi-line values", "chomping changed on one side, a line edited on the other",
                 ours: [("description: |\n", "description: |-\n")], theirs: [("It keeps for three days", "It keeps for four days")]),
            both("multi-line values", "a line added in the middle on each side, apart",
                 ours: [("late summer.\n", "late summer.\n  Or early autumn.\n")], theirs: [("the fridge.\n", "the fridge.\n  Or a month frozen.\n")]),
            // git's diff3 takes edits of touching lines for one change: so does the value merge.
            clash("multi-line values", "neighbouring lines edited",
                  ours: [("Use the ripest tomatoes", "Use the sweetest tomatoes")], theirs: [("It keeps for three days", "It keeps for two days")]),
            clash("multi-line values", "the same line edited both ways",
                  ours: [("Use the ripest tomatoes", "Use the sweetest tomatoes")], theirs: [("Use the ripest tomatoes", "Use tinned tomatoes")]),
            // Numbered lists: a renumbering is not an edit.
            both("numbered lists", "both delete a step, one edits the first, the other the last",
                 ours: [("3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.", "3. Simmer for twenty minutes.\n4. Blend until smooth."),
                        ("1. Chop the onion.", "1. Chop the onion finely.")],
                 theirs: [("3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.", "3. Simmer for twenty minutes.\n4. Blend until very smooth.")],
                 merged: [(steps, "1. Chop the onion finely.\n2. Soften it in the oil.\n3. Simmer for twenty minutes.\n4. Blend until very smooth.\n")]),
            both("numbered lists", "a step inserted in the middle, a later step edited",
                 ours: [("3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                         "3. Add the garlic.\n4. Add the tomatoes.\n5. Simmer for twenty minutes.\n6. Blend until smooth.")],
                 theirs: [("4. Simmer for twenty minutes.", "4. Simmer for half an hour.")],
                 merged: [("3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                           "3. Add the garlic.\n4. Add the tomatoes.\n5. Simmer for half an hour.\n6. Blend until smooth.")]),
            both("numbered lists", "a step deleted near the top, a later step edited",
                 ours: [("2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                         "2. Add the tomatoes.\n3. Simmer for twenty minutes.\n4. Blend until smooth.")],
                 theirs: [("5. Blend until smooth.", "5. Blend until silky.")],
                 merged: [("2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                           "2. Add the tomatoes.\n3. Simmer for twenty minutes.\n4. Blend until silky.")]),
            both("numbered lists", "steps inserted at different places on each side",
                 ours: [("1. Chop the onion.\n2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                         "1. Heat the pot.\n2. Chop the onion.\n3. Soften it in the oil.\n4. Add the tomatoes.\n5. Simmer for twenty minutes.\n6. Blend until smooth.")],
                 theirs: [("5. Blend until smooth.", "5. Blend until smooth.\n6. Season to taste.")],
                 merged: [(steps, "1. Heat the pot.\n2. Chop the onion.\n3. Soften it in the oil.\n4. Add the tomatoes.\n5. Simmer for twenty minutes.\n6. Blend until smooth.\n7. Season to taste.\n")]),
            both("numbered lists", "a list numbered 1. 1. 1. stays so",
                 base: lazy, ours: [("1. Add the tomatoes.\n", "")], theirs: [("1. Blend until smooth.", "1. Blend until silky.")]),
            both("numbered lists", "each side deletes a different step",
                 ours: [("2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                         "2. Add the tomatoes.\n3. Simmer for twenty minutes.\n4. Blend until smooth.")],
                 theirs: [("4. Simmer for twenty minutes.\n5. Blend until smooth.", "4. Blend until smooth.")],
                 merged: [("2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                           "2. Add the tomatoes.\n3. Blend until smooth.")]),
            both("numbered lists", "steps numbered 1) 2): one inserted at the top, the last edited",
                 base: edit(recipe, [(steps, "1) Chop the onion.\n2) Soften it in the oil.\n3) Add the tomatoes.\n")]),
                 ours: [("1) Chop the onion.\n2) Soften it in the oil.\n3) Add the tomatoes.\n", "1) Heat the pot.\n2) Chop the onion.\n3) Soften it in the oil.\n4) Add the tomatoes.\n")],
                 theirs: [("3) Add the tomatoes.", "3) Add the tomatoes and basil.")],
                 merged: [("1) Chop the onion.\n2) Soften it in the oil.\n3) Add the tomatoes.\n", "1) Heat the pot.\n2) Chop the onion.\n3) Soften it in the oil.\n4) Add the tomatoes and basil.\n")]),
            both("numbered lists", "a nested list added under a step, a step appended",
                 ours: [("5. Blend until smooth.\n", "5. Blend until smooth.\n6. Serve.\n")],
                 theirs: [("1. Chop the onion.\n", "1. Chop the onion.\n   1. Peel it.\n   2. Halve it.\n")]),
            both("numbered lists", "a section without a list gains a step on each side",
                 base: edit(recipe, [("5. Blend until smooth.\n", "5. Blend until smooth.\n\n## Serving\nServe hot.\n")]),
                 ours: [("## Serving\n", "## Serving\n1. Warm the bowls.\n")], theirs: [("## Serving\n", "## Serving\n1. Cut the bread.\n")],
                 merged: [("## Serving\n", "## Serving\n1. Warm the bowls.\n2. Cut the bread.\n")]),
            clash("numbered lists", "the same step edited both ways",
                  ours: [("4. Simmer for twenty minutes.", "4. Simmer for ten minutes.")], theirs: [("4. Simmer for twenty minutes.", "4. Simmer for an hour.")],
                  keeping: ["Simmer for ten minutes.", "Simmer for an hour."]),
            // Reordered on one side, edited on the other.
            both("reorder + edit", "flow list reordered, a tag added",
                 ours: [("tags: [soup, tomato, easy]", "tags: [easy, soup, tomato]")], theirs: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")],
                 merged: [("tags: [soup, tomato, easy]", "tags: [easy, soup, tomato, vegan]")]),
            both("reorder + edit", "bullet moved to the top, another bullet edited",
                 ours: [("- 800g tomatoes\n- 1 onion\n- 2 tbsp olive oil\n- salt\n", "- salt\n- 800g tomatoes\n- 1 onion\n- 2 tbsp olive oil\n")],
                 theirs: [("- 1 onion\n", "- 1 red onion\n")],
                 merged: [("- 800g tomatoes\n- 1 onion\n- 2 tbsp olive oil\n- salt\n", "- salt\n- 800g tomatoes\n- 1 red onion\n- 2 tbsp olive oil\n")]),
            both("reorder + edit", "two steps swapped, a third edited",
                 ours: [("2. Soften it in the oil.\n3. Add the tomatoes.", "2. Add the tomatoes.\n3. Soften it in the oil.")],
                 theirs: [("5. Blend until smooth.", "5. Blend until silky.")]),
            both("reorder + edit", "front-matter keys swapped, one of them edited",
                 ours: [("time: 30m  # quick\nservings: 4\n", "servings: 4\ntime: 30m  # quick\n")], theirs: [("servings: 4", "servings: 6")],
                 merged: [("time: 30m  # quick\nservings: 4\n", "servings: 6\ntime: 30m  # quick\n")]),
            both("reorder + edit", "ingredients reordered, a quantity changed",
                 ours: [("  - name: tomatoes\n    quantity: 800g\n  - name: onion\n    quantity: 1\n", "  - name: onion\n    quantity: 1\n  - name: tomatoes\n    quantity: 800g\n")],
                 theirs: [("quantity: 800g", "quantity: 1kg")],
                 merged: [("  - name: tomatoes\n    quantity: 800g\n  - name: onion\n    quantity: 1\n", "  - name: onion\n    quantity: 1\n  - name: tomatoes\n    quantity: 1kg\n")]),
            // Deleted on one side, edited on the other: a real conflict, nothing dropped.
            clash("deleted + edited", "a bullet", ours: [("- 1 onion\n", "")], theirs: [("- 1 onion\n", "- 2 onions\n")], keeping: ["2 onions"]),
            clash("deleted + edited", "a front-matter key", ours: [("servings: 4\n", "")], theirs: [("servings: 4", "servings: 6")], keeping: ["servings: 6"]),
            clash("deleted + edited", "an ingredient", ours: [("  - name: onion\n    quantity: 1\n", "")], theirs: [("quantity: 1\n", "quantity: 2\n")],
                  keeping: ["quantity: 2"]),
            clash("deleted + edited", "a step", ours: [("2. Soften it in the oil.\n3. Add the tomatoes.\n4. Simmer for twenty minutes.\n5. Blend until smooth.",
                                                        "2. Add the tomatoes.\n3. Simmer for twenty minutes.\n4. Blend until smooth.")],
                  theirs: [("2. Soften it in the oil.", "2. Soften it in butter.")], keeping: ["Soften it in butter."]),
            // Nested maps: key by key at every depth.
            both("nested maps", "different keys edited", ours: [("calories: 220", "calories: 250")], theirs: [("protein: 6g", "protein: 7g")]),
            both("nested maps", "a key added, another edited", ours: [("  protein: 6g\n", "  protein: 6g\n  fibre: 3g\n")], theirs: [("calories: 220", "calories: 200")]),
            both("nested maps", "a block text inside a map edited on different lines",
                 base: edit(recipe, [("  protein: 6g\n", "  protein: 6g\n  source: |\n    Weighed at home.\n    Per serving.\n    Checked against the label.\n")]),
                 ours: [("Weighed at home.", "Weighed twice at home.")], theirs: [("Checked against the label.", "Checked against the old label.")]),
            clash("nested maps", "the same ingredient added on both sides with different quantities",
                  ours: [("ingredients:\n", "ingredients:\n  - name: salt\n    quantity: 1 tsp\n")],
                  theirs: [("    quantity: 2 tbsp\n", "    quantity: 2 tbsp\n  - name: salt\n    quantity: 2 tsp\n")],
                  keeping: ["quantity: 1 tsp", "quantity: 2 tsp"]),
            clash("nested maps", "the same key edited both ways", ours: [("calories: 220", "calories: 250")], theirs: [("calories: 220", "calories: 180")]),
            // Flow lists edited on both sides.
            both("flow lists", "a tag added on each side",
                 ours: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, red]")], theirs: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")],
                 merged: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, red, vegan]")]),
            both("flow lists", "a tag removed, another added",
                 ours: [("tags: [soup, tomato, easy]", "tags: [soup, tomato]")], theirs: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")],
                 merged: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, vegan]")]),
            both("flow lists", "the same tag added on both sides",
                 ours: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")], theirs: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")],
                 merged: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")]),
            // How a value is written changed on one side, the value on the other.
            both("style changes", "flow list made a block list, a tag added",
                 ours: [("tags: [soup, tomato, easy]", "tags:\n  - soup\n  - tomato\n  - easy")], theirs: [("tags: [soup, tomato, easy]", "tags: [soup, tomato, easy, vegan]")],
                 merged: [("tags: [soup, tomato, easy]", "tags:\n  - soup\n  - tomato\n  - easy\n  - vegan")]),
            both("style changes", "block list made a flow list, an item removed",
                 base: edit(recipe, [("tags: [soup, tomato, easy]", "tags:\n  - soup\n  - tomato\n  - easy")]),
                 ours: [("tags:\n  - soup\n  - tomato\n  - easy", "tags: [soup, tomato, easy]")], theirs: [("  - tomato\n", "")],
                 merged: [("tags:\n  - soup\n  - tomato\n  - easy", "tags: [soup, easy]")]),
            both("style changes", "a value quoted on one side, changed on the other",
                 ours: [("title: Tomato soup", "title: \"Tomato soup\"")], theirs: [("title: Tomato soup", "title: Tomato and basil soup")],
                 merged: [("title: Tomato soup", "title: \"Tomato and basil soup\"")]),
            // Comments beside edited values.
            both("comments", "a value with a comment edited, another key edited",
                 ours: [("time: 30m  # quick", "time: 25m  # quick")], theirs: [("servings: 4", "servings: 6")]),
            both("comments", "a comment line added, the next key edited",
                 ours: [("servings: 4\n", "# for a family\nservings: 4\n")], theirs: [("servings: 4", "servings: 6")]),
            both("comments", "the value edited on one side, its comment on the other",
                 ours: [("time: 30m  # quick", "time: 25m  # quick")], theirs: [("time: 30m  # quick", "time: 30m  # weeknight")],
                 merged: [("time: 30m  # quick", "time: 25m  # weeknight")]),
            both("comments", "a comment in a block list edited, an item added",
                 base: edit(recipe, [("tags: [soup, tomato, easy]", "tags:\n  - soup  # the kind\n  - tomato\n  - easy")]),
                 ours: [("# the kind", "# what kind of dish")], theirs: [("  - easy", "  - easy\n  - vegan")]),
            // CRLF files merge as LF files do, and stay CRLF.
            both("CRLF", "different fields and a bullet", base: crlf,
                 ours: [("time: 30m", "time: 40m")], theirs: [("- salt\r\n", "- salt\r\n- pepper\r\n")]),
            both("CRLF", "literal block: first line and last line", base: crlf,
                 ours: [("A bright soup", "A bright, quick soup")], theirs: [("Serve it warm", "Serve it hot")]),
            both("CRLF", "both delete a step, one edits the first, the other the last", base: crlf,
                 ours: [("3. Add the tomatoes.\r\n4. Simmer for twenty minutes.\r\n5. Blend until smooth.", "3. Simmer for twenty minutes.\r\n4. Blend until smooth."),
                        ("1. Chop the onion.", "1. Chop the onion finely.")],
                 theirs: [("3. Add the tomatoes.\r\n4. Simmer for twenty minutes.\r\n5. Blend until smooth.", "3. Simmer for twenty minutes.\r\n4. Blend until very smooth.")],
                 merged: [("1. Chop the onion.\r\n2. Soften it in the oil.\r\n3. Add the tomatoes.\r\n4. Simmer for twenty minutes.\r\n5. Blend until smooth.\r\n",
                           "1. Chop the onion finely.\r\n2. Soften it in the oil.\r\n3. Simmer for twenty minutes.\r\n4. Blend until very smooth.\r\n")]),
        ]
    }

    struct Tally {
        var scenarios = 0, clean = 0, correct = 0, conflicts = 0, wrong = 0
        var row: String { "\(scenarios) | \(clean) | \(correct) | \(conflicts) | \(wrong)" }

        /// Counts one merge: clean and exactly as expected, a conflict where one is
        /// required (keeping both sides), a needless conflict, or wrong.
        mutating func count(_ bytes: [UInt8], conflicts: Int, _ outcome: Outcome) -> Bool {
            scenarios += 1
            let text = String(decoding: bytes, as: UTF8.self)
            var right = false
            if conflicts > 0 {
                self.conflicts += 1
                if case .conflict(let keeping) = outcome { right = keeping.allSatisfy(text.contains) }
            } else {
                clean += 1
                if case .clean(let expected) = outcome { right = text == expected }
                if !right { wrong += 1 }
            }
            if right { correct += 1 }
            return right
        }
    }

    @Test func theHarderEditsMergeAsACarefulPersonWould() async throws {
        let git = ExternalTool.find(["git"], install: "apt-get install git")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var families: [String] = []
        var folio: [String: Tally] = [:], gitTallies: [String: Tally] = [:]
        for scenario in Self.scenarios {
            if !families.contains(scenario.family) { families.append(scenario.family) }
            let files = [scenario.base, scenario.ours, scenario.theirs].map { Array($0.utf8) }
            let result = DocumentMerge.merge(base: files[0], ours: files[1], theirs: files[2])
            if !folio[scenario.family, default: Tally()].count(result.bytes, conflicts: result.conflicts, scenario.outcome) {
                Issue.record("""
                    \(scenario.family), \(scenario.name): \(result.conflicts) conflicts, merged:
                    \(String(decoding: result.bytes, as: UTF8.self))
                    """)
            }
            if let git {
                let (bytes, status) = try await ExternalTool.gitMergeFile(git, [files[1], files[0], files[2]], in: folder)
                _ = gitTallies[scenario.family, default: Tally()].count(bytes, conflicts: Int(status), scenario.outcome)
            }
        }
        print("merge scenarios: family | scenarios | clean | correct | conflicts | wrong")
        var total = Tally(), gitTotal = Tally()
        for family in families {
            let f = folio[family]!, g = gitTallies[family] ?? Tally()
            print("  \(family): Folio \(f.row); git merge-file \(g.row)")
            total.scenarios += f.scenarios; total.clean += f.clean; total.correct += f.correct; total.conflicts += f.conflicts; total.wrong += f.wrong
            gitTotal.scenarios += g.scenarios; gitTotal.clean += g.clean; gitTotal.correct += g.correct; gitTotal.conflicts += g.conflicts; gitTotal.wrong += g.wrong
        }
        print("  all: Folio \(total.row); git merge-file \(gitTotal.row)")
        #expect(total.wrong == 0)
        #expect(total.correct == total.scenarios)
    }
}
