@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Testing

/// The stamp index gives back exactly what the archive recorded, for every path and
/// only those, and is no index at all when it was made for something else or damaged.
@Suite struct StampIndexTests {
    static func stamp(_ number: Int64) -> FileStamp {
        FileStamp(size: number, modified: number * 1_000_000_007, changed: -number, inode: UInt64(number) << 40 | 7, type: .regular, permissions: 0o644)
    }

    static func entry(_ number: Int64, a: Bool = true, b: Bool = true) -> SyncArchive.Entry {
        SyncArchive.Entry(hash: SHA256.hash([UInt8(truncatingIfNeeded: number)]), size: number, executable: false,
                          stampA: a ? stamp(number) : nil, stampB: b ? stamp(number + 1) : nil)
    }

    static let validity = SHA256.hash(Array("made for this".utf8))

    static func bytes(_ archive: SyncArchive, including: (SyncPath) -> Bool = { _ in true }) -> [UInt8] {
        StampIndex.serialized(archive, validity: validity, including: including)
    }

    static func look(_ index: StampIndex, _ key: String) -> StampIndex.Entry? {
        Array(key.utf8).withUnsafeBufferPointer { index.lookUp($0)?.entry }
    }

    @Test func everyEntryComesBackAsRecorded() throws {
        var archive = SyncArchive()
        archive.entries["notes/"] = SyncArchive.Entry(hash: .folder, size: 0, executable: false, stampA: .folder, stampB: .folder)
        archive.entries["notes/soup.md"] = Self.entry(1)
        archive.entries["notes/only-on-a.md"] = Self.entry(2, b: false)
        archive.entries["café 100%.md"] = Self.entry(3)
        archive.entries["left out.md"] = Self.entry(4)
        let index = try #require(StampIndex(bytes: Self.bytes(archive) { $0.key != "left out.md" }, validity: Self.validity))
        #expect(index.count == 4)
        #expect(index.archivedFiles == 4)
        #expect(Self.look(index, "notes/") == .folder)
        #expect(Self.look(index, "notes/soup.md") == .file(a: Self.stamp(1), b: Self.stamp(2)))
        #expect(Self.look(index, "notes/only-on-a.md") == .file(a: Self.stamp(2), b: nil))
        #expect(Self.look(index, "café 100%.md") == .file(a: Self.stamp(3), b: Self.stamp(4)))
        // Left out, a folder spelt as a file, a prefix, the root: not there.
        for absent in ["left out.md", "notes", "notes/soup", "", "notes/soup.md/"] { #expect(Self.look(index, absent) == nil, "\(absent)") }
    }

    @Test func seededRandomPathsAreFoundAndOthersAreNot() throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var archive = SyncArchive()
        var absent: Set<String> = []
        for number in 0..<3_000 {
            let depth = Int.random(in: 0...3, using: &random)
            let path = (0..<depth).map { _ in "d\(Int.random(in: 0..<9, using: &random))/" }.joined() + "f\(number)-\(UInt32.random(in: 0...UInt32.max, using: &random)).md"
            if Bool.random(using: &random) { archive.entries[SyncPath(key: path)] = Self.entry(Int64(number)) } else { absent.insert(path) }
        }
        let index = try #require(StampIndex(bytes: Self.bytes(archive), validity: Self.validity), "seed \(seed)")
        #expect(index.count == archive.entries.count, "seed \(seed)")
        for (path, entry) in archive.entries {
            #expect(Self.look(index, path.key) == .file(a: entry.stampA, b: entry.stampB), "seed \(seed): \(path)")
        }
        for path in absent { #expect(Self.look(index, path) == nil, "seed \(seed): \(path)") }
        // The entries of each folder are numbered in a row (they lie together: a look
        // goes folder by folder).
        let numbers = Dictionary(grouping: archive.entries.keys) { $0.ancestors.last?.key ?? "" }.mapValues { paths in
            paths.map { path in Array(path.key.utf8).withUnsafeBufferPointer { index.lookUp($0)!.number } }.sorted()
        }
        for (folder, numbers) in numbers {
            #expect(numbers.last! - numbers.first! == numbers.count - 1, "seed \(seed): the entries in '\(folder)' are numbered \(numbers)")
        }
        #expect(Set(numbers.values.joined()) == Set(0..<index.count), "seed \(seed)")
    }

    /// A patched index answers every lookup as one made afresh from the changed archive
    /// does, over rounds of seeded random changes (new, changed, reshaped, gone, left out).
    @Test func aPatchedIndexAnswersAsOneMadeAfresh() throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var archive = SyncArchive()
        func randomPath() -> SyncPath {
            SyncPath(key: (0..<Int.random(in: 0...2, using: &random)).map { _ in "d\(Int.random(in: 0..<4, using: &random))/" }.joined()
                + "f\(Int.random(in: 0..<600, using: &random)).md")
        }
        for _ in 0..<400 { archive.entries[randomPath()] = Self.entry(Int64.random(in: 1...1000, using: &random)) }
        let leftOut = { (path: SyncPath) in !path.key.hasSuffix("7.md") }
        var index = try #require(StampIndex(bytes: Self.bytes(archive, including: leftOut), validity: Self.validity))
        var patched = 0
        for round in 0..<40 {
            var changed: Set<SyncPath> = []
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                let path = Bool.random(using: &random) ? randomPath() : archive.entries.keys.randomElement(using: &random) ?? randomPath()
                changed.insert(path)
                archive.entries[path] = Int.random(in: 0..<4, using: &random) == 0 ? nil
                    : Self.entry(Int64.random(in: 1...1000, using: &random), a: Int.random(in: 0..<5, using: &random) > 0, b: Int.random(in: 0..<5, using: &random) > 0)
            }
            let files = archive.entries.keys.count { $0.isFile }
            let fresh = try #require(StampIndex(bytes: Self.bytes(archive, including: leftOut), validity: Self.validity))
            guard let body = StampIndex.Body(patching: index, setting: changed.map { ($0, archive.entries[$0]) }, files: files, including: leftOut) else {
                // Too much left behind: the sync makes it afresh.
                index = fresh
                continue
            }
            patched += 1
            index = try #require(StampIndex(bytes: body.file(validity: Self.validity), validity: Self.validity), "seed \(seed), round \(round)")
            #expect(index.count == fresh.count && index.archivedFiles == fresh.archivedFiles, "seed \(seed), round \(round)")
            for path in Set(archive.entries.keys).union(changed) {
                #expect(Self.look(index, path.key) == Self.look(fresh, path.key), "seed \(seed), round \(round): \(path)")
            }
        }
        #expect(patched >= 20, "seed \(seed): only \(patched) of 40 rounds patched")
    }

    @Test func anIndexMadeForSomethingElseOrDamagedIsNone() throws {
        var archive = SyncArchive()
        for number in 0..<50 { archive.entries[SyncPath(key: "n\(number).md")] = Self.entry(Int64(number)) }
        let bytes = Self.bytes(archive)
        #expect(StampIndex(bytes: bytes, validity: Self.validity) != nil)
        #expect(StampIndex(bytes: bytes, validity: SHA256.hash(Array("made for another archive".utf8))) == nil)
        #expect(StampIndex(bytes: Array(bytes.dropLast()), validity: Self.validity) == nil)
        #expect(StampIndex(bytes: [], validity: Self.validity) == nil)
        // Any byte of the body changed (a write cut short, a bad sector): the checksum says so.
        var random = SeededRandom(seed: SeededRandom.testSeed())
        for _ in 0..<20 {
            var damaged = bytes
            let at = Int.random(in: (StampIndex.magic.count + 72)..<bytes.count, using: &random)
            damaged[at] ^= UInt8.random(in: 1...255, using: &random)
            #expect(StampIndex(bytes: damaged, validity: Self.validity) == nil, "byte \(at)")
        }
    }

    @Test func whatTheValidityNamesChangesIt() {
        let rules = PerReplica(a: "", b: "*.log"), roots = PerReplica(a: "/a", b: "/b")
        let base = StampIndex.validity(archiveStamps: [Self.stamp(1), nil], rules: rules, roots: roots)
        #expect(base == StampIndex.validity(archiveStamps: [Self.stamp(1), nil], rules: rules, roots: roots))
        #expect(base != StampIndex.validity(archiveStamps: [Self.stamp(2), nil], rules: rules, roots: roots))
        #expect(base != StampIndex.validity(archiveStamps: [Self.stamp(1), Self.stamp(1)], rules: rules, roots: roots))
        #expect(base != StampIndex.validity(archiveStamps: [Self.stamp(1), nil], rules: PerReplica(a: "*.log", b: ""), roots: roots))
        #expect(base != StampIndex.validity(archiveStamps: [Self.stamp(1), nil], rules: rules, roots: PerReplica(a: "/b", b: "/a")))
    }
}
