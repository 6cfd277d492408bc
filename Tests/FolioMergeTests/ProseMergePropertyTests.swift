import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioMerge

/// Seeded documents edited on two sides: edits of disjoint sentences (in a paragraph,
/// in steps, in notes), lines appended to a `|` block, and on one side a section moved
/// or its heading renamed, merge into exactly both sides' edits; the same sentence
/// edited on both sides conflicts.
@Suite struct ProseMergePropertyTests {
    /// A document as values: a `notes: |` block, a paragraph (one line), and steps
    /// of one to three sentences each.
    struct Model {
        var notes: [String]
        var paragraph: [String]
        var steps: [[String]]
        /// The lines of the `## Tips` section, one sentence each.
        var tips: [String]
        var stepsHeading = "Steps"
        var tipsFirst = false

        func render() -> String {
            let stepsSection = "## \(stepsHeading)\n" + steps.enumerated().map { "\($0.offset + 1). " + $0.element.joined(separator: " ") + "\n" }.joined()
            let tipsSection = "## Tips\n" + tips.map { "- \($0)\n" }.joined()
            return "---\ntitle: Soup\nnotes: |\n" + notes.map { "  \($0)\n" }.joined() + "servings: 4\n---\n"
                + paragraph.joined(separator: " ") + "\n\n" + (tipsFirst ? tipsSection + "\n" + stepsSection : stepsSection + "\n" + tipsSection)
        }

        /// Every sentence's place: `(-1, i)` in the paragraph, `(-2, i)` in the tips, `(step, i)` in a step.
        var places: [(Int, Int)] {
            paragraph.indices.map { (-1, $0) } + tips.indices.map { (-2, $0) } + steps.enumerated().flatMap { step, sentences in sentences.indices.map { (step, $0) } }
        }

        subscript(place: (Int, Int)) -> String {
            get { place.0 == -1 ? paragraph[place.1] : place.0 == -2 ? tips[place.1] : steps[place.0][place.1] }
            set {
                switch place.0 {
                case -1: paragraph[place.1] = newValue
                case -2: tips[place.1] = newValue
                default: steps[place.0][place.1] = newValue
                }
            }
        }
    }

    static let words = ["bread", "beans", "oil", "salt", "kale", "onion", "garlic", "tomato", "basil", "water", "pepper", "cheese", "slowly", "warm"]

    /// A new sentence, different from every other (its number).
    static func sentence(_ random: inout SeededRandom, _ counter: inout Int) -> String {
        counter += 1
        let count = Int.random(in: 2...5, using: &random)
        let body = (0..<count).map { _ in words.randomElement(using: &random)! }
        return body[0].prefix(1).uppercased() + body[0].dropFirst() + " " + body.dropFirst().joined(separator: " ") + " n\(counter)."
    }

    static func model(_ random: inout SeededRandom, _ counter: inout Int) -> Model {
        Model(
            notes: (0..<Int.random(in: 1...3, using: &random)).map { _ in sentence(&random, &counter) },
            paragraph: (0..<Int.random(in: 2...7, using: &random)).map { _ in sentence(&random, &counter) },
            steps: (0..<Int.random(in: 1...4, using: &random)).map { _ in (0..<Int.random(in: 1...3, using: &random)).map { _ in sentence(&random, &counter) } },
            tips: (0..<Int.random(in: 1...3, using: &random)).map { _ in sentence(&random, &counter) })
    }

    func merge(_ base: Model, _ ours: Model, _ theirs: Model) -> DocumentMergeResult {
        DocumentMerge.merge(base: Array(base.render().utf8), ours: Array(ours.render().utf8), theirs: Array(theirs.render().utf8))
    }

    @Test func disjointEditsMergeIntoExactlyBothAndOverlappingOnesConflict() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var counter = 0
        for round in 0..<300 {
            let base = Self.model(&random, &counter)
            // Each side edits sentences of its own (shuffled places, split between the sides).
            let places = base.places.shuffled(using: &random)
            let ourCount = Int.random(in: 0...min(3, places.count - 1), using: &random)
            let theirCount = Int.random(in: (ourCount == 0 ? 1 : 0)...min(3, places.count - ourCount), using: &random)
            var ours = base, theirs = base, expected = base
            // One side may move the tips above the steps, or rename the steps' heading (its
            // steps then left to the other side, so that the body survives the rename).
            let structural = Int.random(in: 0..<6, using: &random)
            if structural == 1 || structural == 2 {
                if structural == 1 { ours.tipsFirst = true } else { theirs.tipsFirst = true }
                expected.tipsFirst = true
            }
            if structural == 3 || structural == 4 {
                if structural == 3 { ours.stepsHeading = "Method" } else { theirs.stepsHeading = "Method" }
                expected.stepsHeading = "Method"
            }
            for place in places.prefix(ourCount) where !(structural == 3 && place.0 >= 0) {
                ours[place] = Self.sentence(&random, &counter)
                expected[place] = ours[place]
            }
            for place in places.dropFirst(ourCount).prefix(theirCount) where !(structural == 4 && place.0 >= 0) {
                theirs[place] = Self.sentence(&random, &counter)
                expected[place] = theirs[place]
            }
            // Both may append a line to the notes block: both lines stay, ours first.
            if Bool.random(using: &random) {
                ours.notes.append(Self.sentence(&random, &counter))
                theirs.notes.append(Self.sentence(&random, &counter))
                expected.notes += [ours.notes.last!, theirs.notes.last!]
            }
            let merged = merge(base, ours, theirs)
            #expect(merged.conflicts == 0 && String(decoding: merged.bytes, as: UTF8.self) == expected.render(),
                    "seed \(seed) round \(round) (FOLIO_SEED=\(seed) replays it):\nbase:\n\(base.render())\nours:\n\(ours.render())\ntheirs:\n\(theirs.render())\nmerged:\n\(String(decoding: merged.bytes, as: UTF8.self))")

            // The same sentence edited differently on both sides: a conflict, never a merge.
            let clash = places[0]
            var ours2 = base, theirs2 = base
            ours2[clash] = Self.sentence(&random, &counter)
            theirs2[clash] = Self.sentence(&random, &counter)
            #expect(merge(base, ours2, theirs2).conflicts > 0, "seed \(seed) round \(round): \(clash) edited on both sides merged")
        }
    }
}
