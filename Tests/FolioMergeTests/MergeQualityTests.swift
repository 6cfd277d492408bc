import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioMerge

/// Merge quality, side by side with `git merge-file`: seeded concurrent edit pairs on
/// recipes, todos and workouts, each with the outcome it must have, built from a
/// model of the document so that the expected merge is the model with both sides'
/// edits applied.
@Suite struct MergeQualityTests {
    /// A recipe, todo or workout as plain values, written out the same way every time.
    struct Model: Equatable {
        var kind: String
        var scalars: [(String, String)]
        var tags: [String]
        var ingredients: [(name: String, quantity: String)]
        var lead: String
        var bullets: [String]
        var steps: [String]
        /// The lines of a `notes: |` block.
        var notes: [String] = []

        static func == (a: Model, b: Model) -> Bool { a.render() == b.render() }

        func render() -> String {
            var text = "---\n"
            for (key, value) in scalars { text += "\(key): \(value)\n" }
            if kind == "recipe" {
                text += "tags: [\(tags.joined(separator: ", "))]\n"
                text += "ingredients:\n" + ingredients.map { "  - name: \($0.name)\n    quantity: \($0.quantity)\n" }.joined()
            }
            if !notes.isEmpty { text += "notes: |\n" + notes.map { "  \($0)\n" }.joined() }
            text += "---\n\(lead)\n"
            if kind == "recipe" {
                text += "\n## Ingredients\n" + bullets.map { "- \($0)\n" }.joined()
                text += "\n## Steps\n" + steps.enumerated().map { "\($0.offset + 1). \($0.element)\n" }.joined()
            } else {
                text += "\n## Notes\n" + bullets.map { "- \($0)\n" }.joined()
            }
            return text
        }
    }

    /// One side's edit: what it is (for grouping) and what it does.
    struct Edit {
        var target: String
        var apply: (inout Model) -> Void
    }

    static let words = ["pepper", "salt", "garlic", "lemon", "basil", "onion", "butter", "thyme", "chili", "honey", "olive", "parsley"]

    static func base(_ random: inout SeededRandom) -> Model {
        let kind = ["recipe", "todo", "workout"].randomElement(using: &random)!
        func word() -> String { words.randomElement(using: &random)! }
        switch kind {
        case "recipe":
            return Model(
                kind: kind,
                scalars: [("title", "\(word().capitalized) pasta"), ("time", "\(Int.random(in: 1...9, using: &random) * 5)m"),
                          ("servings", "\(Int.random(in: 1...6, using: &random))"), ("difficulty", "easy")],
                tags: Array(Set((0..<3).map { _ in word() })).sorted(),
                ingredients: (0..<4).map { n in (name: "\(words[n])", quantity: "\(n + 1)00g") },
                lead: "A quick \(word()) dish.", bullets: (0..<3).map { "\($0 + 1)00g \(words[$0])" },
                steps: ["Boil water.", "Salt it.", "Cook the pasta.", "Drain it.", "Season with \(word())."],
                notes: (0..<5).map { "Note \($0 + 1): \(word()) goes well." })
        case "todo":
            return Model(
                kind: kind,
                scalars: [("title", "Buy \(word())"), ("date", "2026-12-0\(Int.random(in: 1...9, using: &random))"), ("done", "false"),
                          ("priority", "\(Int.random(in: 1...3, using: &random))")],
                tags: [], ingredients: [], lead: "From the market.", bullets: ["ask for \(word())", "bring a bag"], steps: [])
        default:
            return Model(
                kind: kind,
                scalars: [("name", "\(word().capitalized) run"), ("distance", "\(Int.random(in: 3...21, using: &random))"),
                          ("date", "2026-10-1\(Int.random(in: 0...9, using: &random))"), ("complexity", "medium")],
                tags: [], ingredients: [], lead: "Easy pace.", bullets: ["warm up", "cool down"], steps: [])
        }
    }

    /// The edits a side can make to `model`, each naming what it touches.
    static func edits(of model: Model, _ random: inout SeededRandom) -> [Edit] {
        let value = "\(words.randomElement(using: &random)!)-\(Int.random(in: 0...999, using: &random))"
        var edits: [Edit] = []
        for (index, field) in model.scalars.enumerated() {
            edits.append(Edit(target: "field \(field.0)") { $0.scalars[index].1 = field.0 == "title" || field.0 == "name" ? "T \(value)" : "\(value.count)\(value.prefix(1))" })
        }
        edits.append(Edit(target: "add field \(value)") { $0.scalars.append(("note-\(value)", "\(value)")) })
        edits.append(Edit(target: "lead") { $0.lead = "Changed: \(value)." })
        edits.append(Edit(target: "add bullet \(value)") { $0.bullets.append("extra \(value)") })
        let bullet = Int.random(in: 0..<model.bullets.count, using: &random)
        edits.append(Edit(target: "bullet \(bullet)") { $0.bullets[bullet] = "edited \(value)" })
        edits.append(Edit(target: "remove bullet \(bullet)") { $0.bullets.remove(at: bullet) })
        if model.kind == "recipe" {
            edits.append(Edit(target: "add tag \(value)") { $0.tags.append(value) })
            let tag = Int.random(in: 0..<model.tags.count, using: &random)
            edits.append(Edit(target: "remove tag \(tag)") { $0.tags.remove(at: tag) })
            edits.append(Edit(target: "add ingredient \(value)") { $0.ingredients.append((name: value, quantity: "1 pinch")) })
            let ingredient = Int.random(in: 0..<model.ingredients.count, using: &random)
            edits.append(Edit(target: "quantity \(ingredient)") { $0.ingredients[ingredient].quantity = "\(value.count)0g" })
            edits.append(Edit(target: "remove ingredient \(ingredient)") { $0.ingredients.remove(at: ingredient) })
            edits.append(Edit(target: "add step \(value)") { $0.steps.append("Serve with \(value).") })
            let step = Int.random(in: 0..<model.steps.count, using: &random)
            edits.append(Edit(target: "step \(step)") { $0.steps[step] = "Do \(value)." })
            edits.append(Edit(target: "remove step \(step)") { $0.steps.remove(at: step) })
            let line = Int.random(in: 0..<model.notes.count, using: &random)
            edits.append(Edit(target: "note line \(line)") { $0.notes[line] = "Note: \(value)." })
        }
        return edits
    }

    struct Pair {
        var category: String
        var base: Model, ours: Model, theirs: Model
        /// The merged model, or nil when the pair must conflict.
        var expected: Model?
    }

    /// A pair of concurrent edits of a category, with the outcome it must have.
    static func pair(_ random: inout SeededRandom) -> Pair {
        let category = ["different fields", "list additions", "list edits", "section edits", "identical", "conflict",
                        "renumbered steps", "block text lines"].randomElement(using: &random)!
        var base = Self.base(&random)
        // Steps and a block text are a recipe's.
        while ["renumbered steps", "block text lines"].contains(category) && base.kind != "recipe" { base = Self.base(&random) }
        var ours = base, theirs = base
        let oursEdits = edits(of: base, &random), theirsEdits = edits(of: base, &random)
        func pick(_ edits: [Edit], _ filter: (String) -> Bool) -> Edit? { edits.filter { filter($0.target) }.randomElement(using: &random) }
        var a: Edit, b: Edit
        switch category {
        case "different fields":
            a = pick(oursEdits) { $0.hasPrefix("field") }!
            b = pick(theirsEdits) { $0.hasPrefix("field") && $0 != a.target } ?? pick(theirsEdits) { $0.hasPrefix("add field") }!
        case "list additions":
            a = pick(oursEdits) { $0.hasPrefix("add ") }!
            // Two different additions: both sides drawing the same one (one value in 12,000)
            // is the "identical" category, whose merge holds it once.
            b = pick(theirsEdits) { $0.hasPrefix("add ") && $0 != a.target }!
        case "list edits":
            a = pick(oursEdits) { $0.hasPrefix("remove") || $0.hasPrefix("quantity") || $0.hasPrefix("step") || $0.hasPrefix("bullet") }!
            b = pick(theirsEdits) { target in target.hasPrefix("add ") }!
        case "section edits":
            a = pick(oursEdits) { $0 == "lead" }!
            b = pick(theirsEdits) { $0.hasPrefix("add bullet") || $0.hasPrefix("add step") || $0.hasPrefix("field") }!
        case "renumbered steps":
            // A step removed (the rest renumbered) and another step edited.
            let removed = Int.random(in: 0..<base.steps.count, using: &random)
            let edited = (removed + Int.random(in: 1..<base.steps.count, using: &random)) % base.steps.count
            let value = "\(words.randomElement(using: &random)!)-\(Int.random(in: 0...999, using: &random))"
            a = Edit(target: "remove step \(removed)") { $0.steps.remove(at: removed) }
            // Applied to the merge before the removal, which shifts the steps after it.
            b = Edit(target: "step \(edited)") { $0.steps[edited] = "Do \(value)." }
        case "block text lines":
            // Two lines of a `|` block that do not touch (git's diff3 joins touching edits).
            a = pick(oursEdits) { $0.hasPrefix("note line") }!
            let line = Int(a.target.split(separator: " ").last!)!
            b = pick(theirsEdits) { $0.hasPrefix("note line") && abs(Int($0.split(separator: " ").last!)! - line) >= 2 }
                ?? pick(theirsEdits) { $0.hasPrefix("field") }!
        case "identical":
            a = oursEdits.randomElement(using: &random)!
            b = a
        default:
            // Both change the same thing to different values.
            let shared = Set(oursEdits.map(\.target)).intersection(theirsEdits.map(\.target))
                .filter { $0.hasPrefix("field") || $0.hasPrefix("quantity") || $0.hasPrefix("step") || $0.hasPrefix("bullet") || $0 == "lead" || $0.hasPrefix("note line") }
            let target = shared.sorted().randomElement(using: &random)!
            a = oursEdits.first { $0.target == target }!
            b = theirsEdits.first { $0.target == target }!
        }
        a.apply(&ours)
        b.apply(&theirs)
        // An edit that gives back the base's value is no edit.
        var merged = base
        if category == "renumbered steps" { b.apply(&merged) }
        if ours != base { a.apply(&merged) }
        if theirs != base && category != "identical" && category != "renumbered steps" { b.apply(&merged) }
        let conflict = category == "conflict" && ours != theirs && ours != base && theirs != base
        return Pair(category: category, base: base, ours: ours, theirs: theirs, expected: conflict ? nil : merged)
    }

    struct Tally {
        var pairs = 0, clean = 0, correct = 0, conflicts = 0, wrong = 0
        var row: String { "\(pairs) | \(clean) | \(correct) | \(conflicts) | \(wrong)" }
    }

    /// Whether `bytes` hold exactly the expected document: the same front-matter values
    /// and the same body.
    static func holds(_ bytes: [UInt8], _ expected: Model) -> Bool {
        guard let merged = try? Document(bytes: bytes), let want = try? Document(text: expected.render()) else { return false }
        return merged.fields == want.fields && Array(merged.bytes[merged.layout.body]) == Array(want.bytes[want.layout.body])
    }

    static func tally(_ tally: inout Tally, bytes: [UInt8], conflicts: Int, expected: Model?) {
        tally.pairs += 1
        if conflicts > 0 {
            tally.conflicts += 1
            if expected == nil { tally.correct += 1 }
            return
        }
        tally.clean += 1
        if let expected, holds(bytes, expected) { tally.correct += 1 } else { tally.wrong += 1 }
    }

    @Test func folioMergesWhatAStructuredMergeCanAndNeverWrongly() async throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let git = ExternalTool.find(["git"], install: "apt-get install git")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-quality-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var folio = Tally(), gitTally = Tally(), expectedConflicts = 0
        var byCategory: [String: (Tally, Tally)] = [:]
        for _ in 0..<240 {
            let pair = Self.pair(&random)
            let files = [pair.base, pair.ours, pair.theirs].map { Array($0.render().utf8) }
            if pair.expected == nil { expectedConflicts += 1 }
            let result = DocumentMerge.merge(base: files[0], ours: files[1], theirs: files[2])
            var categoryTallies = byCategory[pair.category] ?? (Tally(), Tally())
            Self.tally(&folio, bytes: result.bytes, conflicts: result.conflicts, expected: pair.expected)
            Self.tally(&categoryTallies.0, bytes: result.bytes, conflicts: result.conflicts, expected: pair.expected)
            if result.conflicts == 0, let expected = pair.expected, !Self.holds(result.bytes, expected) {
                Issue.record("seed \(seed): wrong merge of \(pair.category):\n\(String(decoding: result.bytes, as: UTF8.self))\nexpected:\n\(expected.render())")
            }
            if result.conflicts == 0 && pair.expected == nil {
                Issue.record("seed \(seed): missed conflict:\n\(pair.ours.render())\ntheirs:\n\(pair.theirs.render())\nmerged:\n\(String(decoding: result.bytes, as: UTF8.self))")
            }
            if result.conflicts > 0 && pair.expected != nil {
                Issue.record("seed \(seed): needless conflict on \(pair.category):\n\(String(decoding: result.bytes, as: UTF8.self))")
            }
            if let git {
                let (bytes, status) = try await ExternalTool.gitMergeFile(git, [files[1], files[0], files[2]], in: folder)
                Self.tally(&gitTally, bytes: bytes, conflicts: Int(status), expected: pair.expected)
                Self.tally(&categoryTallies.1, bytes: bytes, conflicts: Int(status), expected: pair.expected)
            }
            byCategory[pair.category] = categoryTallies
        }
        print("merge quality, seed \(seed): pairs | clean | correct | conflicts | wrong")
        print("  Folio:           \(folio.row)")
        print("  git merge-file:  \(gitTally.row)")
        for (category, tallies) in byCategory.sorted(by: { $0.key < $1.key }) {
            print("  \(category): Folio \(tallies.0.row); git \(tallies.1.row)")
        }
        #expect(folio.wrong == 0, "seed \(seed)")
        #expect(folio.conflicts == expectedConflicts, "seed \(seed)")
        #expect(folio.correct == folio.pairs, "seed \(seed)")
    }
}
