import FolioFormat
import FolioTestSupport
@testable import FolioSystem
@testable import FolioVersions
import Testing

/// The base of a fold: the newest recorded version strictly older than either side's
/// first appearance, never a side. Exact cases, then a property over seeded random
/// histories: the chosen base is the true common ancestor, and the fold against it
/// keeps every field either side changed.
@Suite struct BaseChoiceTests {
    static func digest(_ text: String) -> SHA256.Digest { SHA256.hash(Array(text.utf8)) }

    static func candidates(_ versions: [(String, Int64)]) -> [BaseCandidate] {
        versions.map { BaseCandidate(hash: digest($0.0), time: $0.1, source: .history) }
    }

    @Test func theBaseIsOlderThanTheFirstAppearanceOfEitherSide() {
        // v0 at 10, the copy's content (v1) first seen at 20, the file's never.
        let history = Self.candidates([("v0", 10), ("v1", 20)])
        let seen = [Self.digest("v1"): Int64(20)]
        let chosen = BaseChoice.choose(from: history, file: Self.digest("file"), copy: Self.digest("v1"), firstSeen: { seen[$0] })
        #expect(chosen?.hash == Self.digest("v0"))
    }

    @Test func aSideIsNeverTheBaseAndNoneIsBetterThanAWrongOne() {
        // Only the copy's own content was ever seen: nothing older, so no base.
        let history = Self.candidates([("v1", 20)])
        let seen = [Self.digest("v1"): Int64(20)]
        #expect(BaseChoice.choose(from: history, file: Self.digest("file"), copy: Self.digest("v1"), firstSeen: { seen[$0] }) == nil)
        // Neither side seen: the newest, unless it is a side.
        let both = Self.candidates([("v0", 10), ("v1", 20)])
        #expect(BaseChoice.choose(from: both, file: Self.digest("a"), copy: Self.digest("b"), firstSeen: { _ in nil })?.hash == Self.digest("v1"))
        #expect(BaseChoice.choose(from: both, file: Self.digest("v1"), copy: Self.digest("b"), firstSeen: { _ in nil })?.hash == Self.digest("v0"))
    }

    @Test func tiesGoToFolioSHistoryThenSyncthingThenGit() {
        let hash = { (text: String) in Self.digest(text) }
        let candidates = [
            BaseCandidate(hash: hash("git"), time: 10, source: .git), BaseCandidate(hash: hash("st"), time: 10, source: .syncthingVersions),
            BaseCandidate(hash: hash("folio"), time: 10, source: .history),
        ]
        #expect(BaseChoice.choose(from: candidates, file: hash("a"), copy: hash("b"), firstSeen: { _ in nil })?.source == .history)
    }

    @Test func aCandidateASideNeverSawIsPassedOver() throws {
        let v0 = Self.document([("time", "15m"), ("servings", "4")])
        let mine = Self.document([("time", "20m"), ("servings", "4")])          // this device's own first save
        let copy = Self.document([("time", "20m"), ("servings", "4"), ("title", "x")])
        let file = Self.document([("time", "15m"), ("servings", "6")])          // never saw `mine`
        let eligible = [BaseCandidate(hash: SHA256.hash(mine), time: 20, source: .history), BaseCandidate(hash: SHA256.hash(v0), time: 10, source: .history)]
        let contents = [SHA256.hash(mine): mine, SHA256.hash(v0): v0]
        let chosen = BaseChoice.ancestor(among: eligible, contents: { contents[$0.hash] }, path: "r.md", file: file, copy: copy)
        #expect(chosen?.bytes == v0)
        // When the file has that save's change, it is the base.
        let fileWithIt = Self.document([("time", "20m"), ("servings", "6")])
        #expect(BaseChoice.ancestor(among: eligible, contents: { contents[$0.hash] }, path: "r.md", file: fileWithIt, copy: copy)?.bytes == mine)
    }

    /// Seen in a three-device Syncthing run: this device's history holds a fold's result,
    /// whose every value an older version had, but paired as no side ever held them; the
    /// late copy from a third device never had it, and folding against it took that
    /// device's old values over the folded ones.
    @Test func aFoldSResultASideNeverHadIsPassedOver() throws {
        let v0 = Self.document([("title", "Soup"), ("time", "15m"), ("servings", "4")])
        let mine = Self.document([("title", "Soup"), ("time", "15m"), ("servings", "6")])
        let theirs = Self.document([("title", "Deluxe"), ("time", "15m"), ("servings", "4")])
        let folded = Self.document([("title", "Deluxe"), ("time", "15m"), ("servings", "6")])
        let copy = Self.document([("title", "Soup"), ("time", "20m"), ("servings", "4")])  // the third device's
        let file = Self.document([("title", "Deluxe"), ("time", "20m"), ("servings", "6")])
        let versions = [(folded, Int64(40)), (theirs, 30), (mine, 20), (v0, 10)]
        let eligible = versions.map { BaseCandidate(hash: SHA256.hash($0.0), time: $0.1, source: .history) }
        let contents = Dictionary(versions.map { (SHA256.hash($0.0), $0.0) }, uniquingKeysWith: { first, _ in first })
        let chosen = BaseChoice.ancestor(among: eligible, contents: { contents[$0.hash] }, path: "r.md", file: file, copy: copy)
        #expect(chosen?.bytes == v0)
        guard case .merged(let merged) = ConflictFold.fold(path: "r.md", base: chosen?.bytes, file: file, copy: copy) else {
            Issue.record("the fold did not merge")
            return
        }
        #expect(merged == file)
    }

    /// A front matter of `fields` (in order), with a body.
    static func document(_ fields: [(String, String)]) -> [UInt8] {
        Array(("---\n" + fields.map { "\($0.0): \($0.1)\n" }.joined() + "---\nBody line.\n").utf8)
    }

    @Test func randomHistoriesChooseTheTrueAncestorAndTheFoldKeepsEveryChange() throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let keys = ["title", "time", "servings", "rating", "source", "author", "note"]
        var cases = 0, untried = 0
        for _ in 0..<500 {
            // A linear history of one file: each version changes one field.
            var fields = keys.map { ($0, "v0") }
            var versions: [[UInt8]] = [Self.document(fields)]
            for step in 1..<Int.random(in: 2...12, using: &random) {
                let index = Int.random(in: 0..<fields.count, using: &random)
                fields[index].1 = "s\(step)"
                versions.append(Self.document(fields))
            }
            // Recorded at increasing times, with versions of another path between them.
            var time: Int64 = 1_000
            var log: [VersionHistory.Version] = []
            var previous: SHA256.Digest?
            for bytes in versions {
                time += Int64.random(in: 1...1_000, using: &random)
                let hash = SHA256.hash(bytes)
                if hash != previous { log.append(.init(path: "r.md", hash: hash, time: time, size: bytes.count)) }
                previous = hash
                if Bool.random(using: &random) { log.append(.init(path: "other.md", hash: SHA256.hash(Array("\(time)".utf8)), time: time, size: 4)) }
            }
            // The ancestor: the newest version (neither side seen), or an older one after
            // which one device saved one or more times (its own saves, recorded) while the
            // other, which never had them, edited the ancestor.
            let ancestorIndex = Int.random(in: 0..<versions.count, using: &random)
            let ancestor = versions[ancestorIndex]
            func edit(_ bytes: [UInt8], keys chosen: [String], mark: String) throws -> [UInt8] {
                var document = try Document(bytes: bytes)
                for key in chosen { document = try document.settingValue(.string(mark + key), forKey: key) }
                return document.bytes
            }
            let shuffled = keys.shuffled(using: &random)
            let keysX = Array(shuffled.prefix(Int.random(in: 1...3, using: &random)))
            let sideX: [UInt8]
            if ancestorIndex < versions.count - 1 {
                // Side X is this device's last save; the history is cut there, since X was
                // then replaced by the sync tool.
                let last = Int.random(in: (ancestorIndex + 1)..<versions.count, using: &random)
                sideX = versions[last]
                log = log.filter { entry in entry.path != "r.md" || versions[...last].contains { SHA256.hash($0) == entry.hash } }
            } else {
                sideX = try edit(ancestor, keys: keysX, mark: "x-")
            }
            // Side Y changes other fields than X: a merge that can be clean.
            let ancestorDocument = try Document(bytes: ancestor), xDocument = try Document(bytes: sideX)
            let free = keys.filter { xDocument[$0] == ancestorDocument[$0] }.shuffled(using: &random)
            // X changed every field: nothing is left for Y to change on its own.
            guard !free.isEmpty else {
                untried += 1
                continue
            }
            let sideY = try edit(ancestor, keys: Array(free.prefix(Int.random(in: 1...3, using: &random))), mark: "y-")
            let firstSeen = Dictionary(log.map { ($0.hash, $0.time) }, uniquingKeysWith: min)
            let candidates = log.filter { $0.path == "r.md" }.map { BaseCandidate(hash: $0.hash, time: $0.time, source: .history) }
            let contents = Dictionary(versions.map { (SHA256.hash($0), $0) }, uniquingKeysWith: { first, _ in first })
            // Either side may be the file; the other is the copy.
            let (file, copy) = Bool.random(using: &random) ? (sideX, sideY) : (sideY, sideX)
            let eligible = BaseChoice.eligible(from: candidates, file: SHA256.hash(file), copy: SHA256.hash(copy), firstSeen: { firstSeen[$0] })
            let cutoff = [firstSeen[SHA256.hash(file)], firstSeen[SHA256.hash(copy)]].compactMap { $0 }.min()
            #expect(!eligible.contains { $0.hash == SHA256.hash(file) || $0.hash == SHA256.hash(copy) }, "seed \(seed): a side is a candidate")
            #expect(cutoff.map { cutoff in eligible.allSatisfy { $0.time < cutoff } } ?? true, "seed \(seed): a candidate is not older than both sides")
            let chosen = BaseChoice.ancestor(
                among: eligible, contents: { contents[$0.hash] }, path: "r.md", file: file, copy: copy)
            // A side rewrote every field the ancestor brought over its predecessor: it looks like it
            // never had the ancestor, an older base is taken, and the clash keeps the copy.
            let before = ancestorIndex > 0 ? try Document(bytes: versions[ancestorIndex - 1]) : nil
            let y = try Document(bytes: sideY)
            let brought = before.map { before in keys.filter { ancestorDocument[$0] != before[$0] } } ?? []
            let overwritten = !brought.isEmpty
                && (brought.allSatisfy { y[$0] != ancestorDocument[$0] } || brought.allSatisfy { xDocument[$0] != ancestorDocument[$0] })
            let outcome = ConflictFold.fold(path: "r.md", base: chosen?.bytes, file: file, copy: copy)
            if overwritten {
                guard case .conflict = outcome else {
                    Issue.record("seed \(seed): a passed-over ancestor did not end as a kept copy: \(outcome)")
                    continue
                }
                cases += 1
                continue
            }
            #expect(chosen?.bytes == ancestor, "seed \(seed): the base is not the common ancestor")
            // The fold against it holds both sides' fields.
            guard case .merged(let merged) = outcome else {
                Issue.record("seed \(seed): the fold of two edits of different fields did not merge")
                continue
            }
            let result = try Document(bytes: merged), x = xDocument, base = ancestorDocument
            for key in keys {
                let expected = x[key] != base[key] ? x[key] : y[key]
                #expect(result[key] == expected, "seed \(seed): \(key) is \(String(describing: result[key])), not \(String(describing: expected))")
            }
            cases += 1
        }
        #expect(cases + untried == 500 && cases >= 450, "seed \(seed): \(cases) cases tried, \(untried) left out")
    }
}
