import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

@Suite struct BlockCompressionTests {
    /// Text much alike, as a pack's versions are: words from a small vocabulary, lines
    /// repeated from earlier, runs of one byte, and some noise.
    static func alikeText(_ random: inout SeededRandom, count: Int) -> [UInt8] {
        let words = ["title:", "Soup", "servings:", "4", "time:", "15m", "- salt", "\n", "## Steps", "simmer", " ", "kind: recipe"].map { Array($0.utf8) }
        var out: [UInt8] = []
        while out.count < count {
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where out.count > 8:
                let start = Int.random(in: 0..<out.count - 4, using: &random)
                out += out[start..<min(out.count, start + Int.random(in: 4..<300, using: &random))]
            case 1: out += [UInt8](repeating: UInt8.random(in: 0...255, using: &random), count: Int.random(in: 1..<600, using: &random))
            case 2: out += (0..<Int.random(in: 1..<40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            default: out += words.randomElement(using: &random)!
            }
        }
        return Array(out.prefix(count))
    }

    /// Every input comes back byte for byte, over seeded random inputs from empty to past
    /// the window, and inputs much alike take a fraction of their bytes.
    @Test func whatIsCompressedComesBackExactly() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var raw = 0, packed = 0
        for round in 0..<300 {
            let count = round < 20 ? round : Int.random(in: 0..<(round % 10 == 0 ? 200_000 : 40_000), using: &random)
            let bytes = round % 7 == 3 ? (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } : Self.alikeText(&random, count: count)
            let compressed = BlockCompression.compress(bytes)
            let back = BlockCompression.decompress(compressed)
            #expect(back == bytes, "seed \(seed), round \(round), \(count) bytes")
            if back != bytes { return }
            if round % 7 != 3 { (raw, packed) = (raw + bytes.count, packed + compressed.count) }
        }
        #expect(packed * 3 < raw, "seed \(seed): \(raw) bytes alike took \(packed)")
    }

    /// A block cut short, or one whose back-reference points before its start, is no
    /// block: nil, never a crash or bytes from elsewhere.
    @Test func aDamagedBlockIsNone() {
        let text = Array(String(repeating: "servings: 4\ntime: 15m\n", count: 40).utf8)
        let compressed = BlockCompression.compress(text)
        #expect(compressed.count < text.count / 4)
        for cut in [1, 2, compressed.count / 2] {
            #expect(BlockCompression.decompress(Array(compressed.dropLast(cut))) != text)
        }
        // A literal byte, then a match reaching three bytes back.
        #expect(BlockCompression.decompress([0x10, 65, 3, 0, 0x00]) == nil)
        #expect(BlockCompression.decompress([0x10, 65, 1, 0, 0x00]) == Array("AAAAA".utf8))
        #expect(BlockCompression.decompress(BlockCompression.compress([])) == [])
        #expect(BlockCompression.decompress(compressed, limit: text.count - 1) == nil)
    }

    /// The pack keeps versions written together in compressed blocks: they read back
    /// through a new store, through a compaction, and take a fraction of their bytes;
    /// a block that no longer decompresses gives no base (and is dropped by compaction).
    @Test func aPackOfBlocksReadsBackThroughACompaction() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pack-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = try RootedFolder.creating(root.path, mode: 0o700)
        let versions = (0..<400).map { n in Array("---\ntitle: Soup \(n)\nservings: \(n % 9)\n---\n## Ingredients\n- 1 l water\n- \(n) carrots\n".utf8) }
        let store = BaseStore(state: state, known: [])
        for bytes in versions { try store.store(bytes, hash: SHA256.hash(bytes)) }
        try store.flush()
        let raw = versions.reduce(0) { $0 + $1.count }
        func packBytes() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".pack") }
                .reduce(0) { try $0 + (FileManager.default.attributesOfItem(atPath: root.path + "/" + $1)[.size] as! Int) }
        }
        #expect(try packBytes() * 3 < raw)
        let reopened = BaseStore(state: state, known: [])
        for bytes in versions.shuffled() { #expect(reopened.load(SHA256.hash(bytes)) == bytes) }
        let keep = Set(versions.enumerated().filter { $0.offset % 3 == 0 }.map { SHA256.hash($0.element) })
        try reopened.compact(keeping: keep)
        let compacted = BaseStore(state: state, known: [])
        for bytes in versions { #expect(compacted.load(SHA256.hash(bytes)) == (keep.contains(SHA256.hash(bytes)) ? bytes : nil)) }
        // Damage: the pack's bytes overwritten in the middle.
        let name = try FileManager.default.contentsOfDirectory(atPath: root.path).first { $0.hasSuffix(".pack") }!
        let handle = try FileHandle(forWritingTo: root.appendingPathComponent(name))
        try handle.seek(toOffset: 20)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 40))
        try handle.close()
        let damaged = BaseStore(state: state, known: [])
        #expect(versions.filter { damaged.load(SHA256.hash($0)) == $0 }.count < keep.count)
        try damaged.compact(keeping: keep)
        let after = BaseStore(state: state, known: [])
        #expect(versions.allSatisfy { after.load(SHA256.hash($0)) == nil || keep.contains(SHA256.hash($0)) })
    }

    /// An index append cut short (a crash), with the next run's append after it: what
    /// the cut line's block held is read as before, what follows it is either read right
    /// or not known (so stored again), never placed by a guess.
    @Test func anIndexLineCutShortPlacesNothingByAGuess() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pack-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = try RootedFolder.creating(root.path, mode: 0o700)
        func versions(_ prefix: String) -> [[UInt8]] { (0..<50).map { Array("---\ntitle: \(prefix) \($0)\n---\n- salt\n- \($0) carrots\n".utf8) } }
        let first = versions("Soup"), second = versions("Stew")
        let store = BaseStore(state: state, known: [])
        for bytes in first { try store.store(bytes, hash: SHA256.hash(bytes)) }
        try store.flush()
        let handle = try FileHandle(forWritingTo: root.appendingPathComponent("bases.index"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("block 9".utf8))
        try handle.close()
        let next = BaseStore(state: state, known: [])
        for bytes in second { try next.store(bytes, hash: SHA256.hash(bytes)) }
        try next.flush()
        let reopened = BaseStore(indexedIn: state)
        for bytes in first { #expect(reopened.load(SHA256.hash(bytes)) == bytes && reopened.contains(SHA256.hash(bytes))) }
        for bytes in second { #expect(reopened.load(SHA256.hash(bytes)) == nil && !reopened.contains(SHA256.hash(bytes))) }
        for bytes in second { try reopened.store(bytes, hash: SHA256.hash(bytes)) }
        for bytes in first + second { #expect(reopened.load(SHA256.hash(bytes)) == bytes) }
    }
}
