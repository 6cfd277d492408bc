import FolioFormat
import FolioTestSupport
import Testing
@testable import FolioSync

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

    /// A front matter of `fields` (in order), with a body.
    static func document(_ fields: [(String, String)]) -> [UInt8] {
        Array(("---\n" + fields.map { "\($0.0): \($0.1)\n" }.joined() + "---\nBody line.\n").utf8)
    }

    @Test func randomHistoriesChooseTheTrueAncestorAndTheFoldKeepsEveryChange() throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let keys = ["title", "time", "servings", "rating", "source", "author", "note"]
        var cases = 0
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
            // The ancestor: the newest version (neither side seen), or an older one whose
            // first descendant on one side was seen (the device's own edit, recorded).
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
                // Side X is the next recorded version: seen. Later versions do not exist here
                // (the history is cut at X), since X was then replaced by the sync tool.
                sideX = versions[ancestorIndex + 1]
                log = log.filter { entry in
                    entry.path != "r.md" || versions[...(ancestorIndex + 1)].contains { SHA256.hash($0) == entry.hash }
                }
            } else {
                sideX = try edit(ancestor, keys: keysX, mark: "x-")
            }
            // Side Y changes other fields than X: a merge that can be clean.
            let ancestorDocument = try Document(bytes: ancestor), xDocument = try Document(bytes: sideX)
            let free = keys.filter { xDocument[$0] == ancestorDocument[$0] }.shuffled(using: &random)
            let sideY = try edit(ancestor, keys: Array(free.prefix(Int.random(in: 1...3, using: &random))), mark: "y-")
            let firstSeen = Dictionary(log.map { ($0.hash, $0.time) }, uniquingKeysWith: min)
            let candidates = log.filter { $0.path == "r.md" }.map { BaseCandidate(hash: $0.hash, time: $0.time, source: .history) }
            // Either side may be the file; the other is the copy.
            let (file, copy) = Bool.random(using: &random) ? (sideX, sideY) : (sideY, sideX)
            let chosen = BaseChoice.choose(from: candidates, file: SHA256.hash(file), copy: SHA256.hash(copy), firstSeen: { firstSeen[$0] })
            let cutoff = [firstSeen[SHA256.hash(file)], firstSeen[SHA256.hash(copy)]].compactMap { $0 }.min()
            #expect(chosen?.hash != SHA256.hash(file) && chosen?.hash != SHA256.hash(copy), "seed \(seed): a side was chosen as the base")
            #expect(cutoff.map { cutoff in chosen.map { $0.time < cutoff } ?? true } ?? true, "seed \(seed): the base is not older than both sides")
            #expect(chosen?.hash == SHA256.hash(ancestor), "seed \(seed): the base is not the common ancestor")
            // The fold against it holds both sides' fields.
            guard case .merged(let merged) = ConflictFold.fold(path: "r.md", base: ancestor, file: file, copy: copy) else {
                Issue.record("seed \(seed): the fold of two edits of different fields did not merge")
                continue
            }
            let result = try Document(bytes: merged), x = xDocument, y = try Document(bytes: sideY), base = ancestorDocument
            for key in keys {
                let expected = x[key] != base[key] ? x[key] : y[key]
                #expect(result[key] == expected, "seed \(seed): \(key) is \(String(describing: result[key])), not \(String(describing: expected))")
            }
            cases += 1
        }
        #expect(cases == 500)
    }
}
