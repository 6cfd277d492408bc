import FolioFolder
@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Two real replicas and a state folder, fresh for each test.
struct Replicas {
    let root: URL
    var a: String { root.appendingPathComponent("laptop").path }
    var b: String { root.appendingPathComponent("phone").path }
    var state: String { root.appendingPathComponent("state").path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-sync-\(UUID().uuidString)")
        for folder in ["laptop", "phone"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    func path(_ replica: Replica, _ path: String) -> String { (replica == .a ? a : b) + "/" + path }

    func write(_ text: String, _ path: String, in replica: Replica) throws {
        try FixtureFile.write(text, to: self.path(replica, path))
    }

    func read(_ path: String, in replica: Replica) -> String? {
        FileManager.default.contents(atPath: self.path(replica, path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file of a folder, by relative path.
    static func files(under folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        while let relative = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
            }
        }
        return files
    }

    func sync(_ configure: (inout SyncOptions) -> Void = { _ in }) throws -> SyncReport {
        var options = SyncOptions()
        options.stateDirectory = state
        configure(&options)
        return try SyncEngine(a, b, options: options).run()
    }

    /// A sync with the system calls `failure` picks failing (fault injection: the tests
    /// run as root, so permissions deny nothing).
    func sync(failing failure: @escaping @Sendable (SystemError.Operation, String) -> Int32?) throws -> SyncReport {
        try FaultInjection.$current.withValue(FaultInjection(failure: failure)) { try sync() }
    }

    /// A soup with an id, synced; then renamed to `recipes/leek-soup.md` and retimed on
    /// the laptop while its servings change on the phone. Returns the merge both want.
    func renameAndEditOnTheLaptopWhileThePhoneEdits() throws -> String {
        let soup = "---\nid: 7f3a\ntitle: Soup\ntime: 15m\nservings: 2\n---\nHot.\n"
        try write(soup, "recipes/soup.md", in: .a)
        _ = try sync()
        try FileManager.default.removeItem(atPath: path(.a, "recipes/soup.md"))
        try write(soup.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "recipes/leek-soup.md", in: .a)
        try write(soup.replacingOccurrences(of: "servings: 2", with: "servings: 4"), "recipes/soup.md", in: .b)
        return soup.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4")
    }
}

@Suite struct SyncEngineTests {
    static let recipe = "---\ntitle: Soup\ntime: 15m\nservings: 2\ntags: [soup]\n---\nHot.\n\n## Steps\n1. Boil.\n"

    @Test func firstSyncCopiesEverythingAndASecondChangesNothing() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.recipe, "recipes/soup.md", in: .a)
        try replicas.write("milk\n", "notes/shopping.txt", in: .b)
        let first = try replicas.sync()
        #expect(first.copied == ["notes/shopping.txt", "recipes/soup.md"])
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
        let second = try replicas.sync()
        #expect(second.copied.isEmpty && second.deleted.isEmpty && second.merged.isEmpty && second.hashed == 0)
        // The archive is private to the user.
        let mode = try FileStamp.of(replicas.state).permissions
        #expect(mode == 0o700)
    }

    @Test func aFirstSyncOfMoreFilesThanABatchCopiesAndRecordsEachOnce() throws {
        // Copies go batch by batch (1,024 files), each recorded while the next is written:
        // both ways, in five folders, past two batch boundaries.
        let replicas = try Replicas()
        defer { replicas.remove() }
        var expected: [String] = []
        for index in 0..<2_600 {
            let path = "folder\(index % 5)/note\(index).md"
            try replicas.write("note \(index)\n", path, in: index % 4 == 0 ? .b : .a)
            expected.append(path)
        }
        let first = try replicas.sync()
        #expect(first.copied == expected.sorted())
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
        let second = try replicas.sync()
        #expect(second.copied.isEmpty && second.deleted.isEmpty && second.hashed == 0)
        // Each copy's base was kept: an edit on both sides merges.
        try replicas.write("title\nnote 7\n", "folder2/note7.md", in: .a)
        try replicas.write("note 7\nfooter\n", "folder2/note7.md", in: .b)
        #expect(try replicas.sync().merged == ["folder2/note7.md"])
        #expect(replicas.read("folder2/note7.md", in: .b) == "title\nnote 7\nfooter\n")
    }

    @Test func concurrentEditsMergeAndAConflictKeepsBothVersions() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.recipe, "recipes/soup.md", in: .a)
        _ = try replicas.sync()
        try replicas.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "recipes/soup.md", in: .a)
        try replicas.write(Self.recipe.replacingOccurrences(of: "servings: 2", with: "servings: 4"), "recipes/soup.md", in: .b)
        let merged = try replicas.sync()
        #expect(merged.merged == ["recipes/soup.md"] && merged.conflicts.isEmpty)
        let expected = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4")
        #expect(replicas.read("recipes/soup.md", in: .a) == expected && replicas.read("recipes/soup.md", in: .b) == expected)
        // Both retitle: the newer stays in place, the other is saved beside it.
        try replicas.write(expected.replacingOccurrences(of: "title: Soup", with: "title: Old soup"), "recipes/soup.md", in: .a)
        try replicas.write(expected.replacingOccurrences(of: "title: Soup", with: "title: New soup"), "recipes/soup.md", in: .b)
        // B's is the newer, by its time set explicitly rather than by sleeping.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: replicas.path(.a, "recipes/soup.md"))
        let conflict = try replicas.sync()
        let copy = try #require((conflict.conflicts["recipes/soup.md"] ?? nil)?.key)
        #expect(copy.hasPrefix("recipes/soup.sync-conflict-") && copy.hasSuffix("-laptop.md"))
        #expect(replicas.read("recipes/soup.md", in: .a)?.contains("title: New soup") == true)
        #expect(replicas.read(copy, in: .b)?.contains("title: Old soup") == true)
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
    }

    @Test func deletionsGoToTheTrashAndAnEditWinsOverADeletion() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("a\n", "a.txt", in: .a)
        try replicas.write("b\n", "b.txt", in: .a)
        _ = try replicas.sync()
        try FileManager.default.removeItem(atPath: replicas.path(.a, "a.txt"))
        try FileManager.default.removeItem(atPath: replicas.path(.b, "b.txt"))
        try replicas.write("b edited\n", "b.txt", in: .a)
        let report = try replicas.sync()
        #expect(report.deleted == ["a.txt"])
        #expect(replicas.read("a.txt", in: .b) == nil)
        #expect(replicas.read("b.txt", in: .b) == "b edited\n")
        let trashed = Replicas.files(under: replicas.state + "/trash")
        #expect(trashed.count == 1 && trashed.keys.first?.hasSuffix("/B/a.txt") == true)
    }

    @Test func aMissingOrSuddenlyEmptyReplicaIsRefused() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("a\n", "a.txt", in: .a)
        _ = try replicas.sync()
        // The USB stick is mounted empty: nothing may be deleted on the other side.
        try FileManager.default.removeItem(atPath: replicas.path(.b, "a.txt"))
        #expect(throws: SyncError.self) { try replicas.sync() }
        #expect(replicas.read("a.txt", in: .a) == "a\n")
        try FileManager.default.removeItem(atPath: replicas.b)
        #expect(throws: SyncError.self) { try replicas.sync() }
        #expect(replicas.read("a.txt", in: .a) == "a\n")
    }

    @Test func aFileChangedDuringTheSyncIsLeftForNextTime() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\n", "a.txt", in: .a)
        try replicas.write("two\n", "a.txt", in: .b)
        // A write on B between the scan and the copy: simulated by a stale scan.
        var options = SyncOptions()
        options.stateDirectory = replicas.state
        let engine = try SyncEngine(replicas.a, replicas.b, options: options)
        let scanB = try ReplicaScan.scan(try RootedFolder(replicas.b), ignoring: FolioIgnore(), known: { _ in nil })
        try replicas.write("typed meanwhile\n", "a.txt", in: .b)
        var applier = Applier(engine: engine, state: try engine.openState(), bases: BaseStore(state: try RootedFolder.creating(replicas.state), known: []), scans: PerReplica(a: try ReplicaScan.scan(try RootedFolder(replicas.a), ignoring: FolioIgnore(), known: { _ in nil }), b: scanB), archive: SyncArchive(), report: SyncReport())
        applier.apply(.copy("a.txt", from: .a))
        applier.commitReplacements()
        #expect(applier.report.changedDuringSync == ["a.txt"])
        #expect(applier.archive.entries["a.txt"] == nil)
        #expect(replicas.read("a.txt", in: .b) == "typed meanwhile\n")
    }

    @Test func ignoredAndScratchFilesAndLinksAreNeverSynced() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("*.log\nbuild/\n!keep.log\n", ".folioignore", in: .a)
        for path in ["x.log", "keep.log", "build/out.md", ".git/config", "a.md~", ".a.md.swp", "notes/n.md"] { try replicas.write("x\n", path, in: .a) }
        try FileManager.default.createSymbolicLink(atPath: replicas.path(.a, "link.md"), withDestinationPath: "/etc/passwd")
        let report = try replicas.sync()
        // The rule file is A's own: it governs A and is never copied to B.
        #expect(Set(Replicas.files(under: replicas.b).keys) == ["keep.log", "notes/n.md"])
        #expect(report.skipped["A:link.md"]?.contains("symbolic link") == true)
        // Left alone by design: reported, but nothing for the user to fix (exit 0).
        #expect(report.passedOver == ["A:link.md"] && !report.foundProblems)
    }

    @Test func theArchiveRoundTrips() throws {
        var archive = SyncArchive()
        let stamp = FileStamp(size: 3, modified: 1, changed: 2, inode: 4, type: .regular, permissions: 0o755)
        archive.entries["odd\tname%\n.md"] = .init(hash: SHA256.hash([1]), size: 3, executable: true, stampA: stamp, stampB: nil)
        archive.entries["plain.md"] = .init(hash: SHA256.hash([2]), size: 3, executable: false, stampA: nil, stampB: stamp)
        #expect(try SyncArchive(serialized: archive.serialized()) == archive)
        #expect(throws: SyncError.self) { try SyncArchive(serialized: Array("not an archive\n".utf8)) }
    }

    @Test func numbersAreWrittenAsSwiftPrintsThem() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        let edges: [Int64] = [0, 1, 9, 10, -1, -10, 99, 100, 1_796_000_000_123_456_789, .max, .min, .max - 1, .min + 1]
        for value in edges + (0..<200).map({ _ in Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random) }) {
            var out: [UInt8] = [UInt8(ascii: "<")]
            LineFields.appendDecimal(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "<\(value)", "seed \(seed)")
        }
    }

    /// The archive's and the logs' readers (over a read buffer, over a split-out slice)
    /// read what the writers wrote, and refuse what the generic reader refuses.
    @Test func theLineFieldReadersAgreeWithTheWriters() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        let odd = ["", "-", "--1", "1-", "12a", "9223372036854775808", "-9223372036854775807", "%", "%4", "%zz", "a%25b", "%09%0A"]
        var samples = odd
        for _ in 0..<200 {
            var value: [UInt8] = []
            let number = Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random)
            LineFields.appendDecimal(number, to: &value)
            // Read back as written, whichever reader (the generic one now calls the others).
            #expect(LineFields.integer(value[...]) == number && LineFields.integer(value.lazy.map { $0 }) == number, "\(number), seed \(seed)")
            samples.append(String(decoding: value, as: UTF8.self))
            samples.append(LineFields.escaped(String((0..<Int.random(in: 0...12, using: &random)).map { _ in "ab%\t\n\r.é/".randomElement(using: &random)! })))
        }
        for sample in samples {
            let bytes = Array(sample.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                #expect(LineFields.integer(buffer[...]) == LineFields.integer(bytes[...].lazy.map { $0 }), "\(sample), seed \(seed)")
                #expect(LineFields.integer(bytes[...]) == LineFields.integer(buffer[...]), "\(sample), seed \(seed)")
                #expect(LineFields.unescaped(buffer[...]) == LineFields.unescaped(sample.utf8), "\(sample), seed \(seed)")
                #expect(LineFields.unescaped(bytes[...]) == LineFields.unescaped(sample.utf8), "\(sample), seed \(seed)")
            }
        }
        #expect(LineFields.integer(Array("-42".utf8)[...]) == -42 && LineFields.unescaped(Array("a%09b".utf8)[...]) == "a\tb")
        #expect(LineFields.unescaped(Array("%zz".utf8)[...]) == nil)
    }

    @Test func aVersionLineIsTimeHashSizeAndEscapedPath() {
        let hash = SHA256.hash(Array("x".utf8))
        var out: [UInt8] = []
        VersionHistory.appendLine(.init(path: "a\tb%.md", hash: hash, time: 1_796_000_000_123_456_789, size: 12), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "1796000000123456789\t\(hash)\t12\ta%09b%25.md\n")
        #expect(VersionHistory.parse(out) == [.init(path: "a\tb%.md", hash: hash, time: 1_796_000_000_123_456_789, size: 12)])
    }
}

extension SyncEngineTests {
    @Test func nothingIsWrittenThroughASymbolicLinkOutOfAReplica() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let outside = replicas.root.appendingPathComponent("outside").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // On B, `notes` is a link to a folder outside the replica; A has a real notes/.
        try FileManager.default.createSymbolicLink(atPath: replicas.path(.b, "notes"), withDestinationPath: outside)
        try replicas.write("secret\n", "notes/n.md", in: .a)
        let report = try replicas.sync()
        #expect(report.skipped["B:notes"]?.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test func theExecutableBitTravels() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("#!/bin/sh\n", "run.sh", in: .a)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: replicas.path(.a, "run.sh"))
        _ = try replicas.sync()
        #expect(try FileStamp.of(replicas.path(.b, "run.sh")).isExecutable)
        // A change of the bit alone is a change too.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: replicas.path(.b, "run.sh"))
        #expect(try replicas.sync().copied == ["run.sh"])
        #expect(try !FileStamp.of(replicas.path(.a, "run.sh")).isExecutable)
    }

    @Test func aRenameIsCarriedAcrossWithTheOtherSidesEdit() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.recipe, "recipes/soup.md", in: .a)
        _ = try replicas.sync()
        try FileManager.default.moveItem(atPath: replicas.path(.a, "recipes/soup.md"), toPath: replicas.path(.a, "recipes/leek-soup.md"))
        let edited = Self.recipe.replacingOccurrences(of: "servings: 2", with: "servings: 6")
        try replicas.write(edited, "recipes/soup.md", in: .b)
        let report = try replicas.sync()
        #expect(report.moved == ["recipes/soup.md → recipes/leek-soup.md"])
        #expect(replicas.read("recipes/leek-soup.md", in: .a) == edited && replicas.read("recipes/leek-soup.md", in: .b) == edited)
        #expect(replicas.read("recipes/soup.md", in: .a) == nil && replicas.read("recipes/soup.md", in: .b) == nil)
        #expect(try replicas.sync().moved.isEmpty)
    }

    @Test func syncthingAndDropboxConflictCopiesAreFoldedBack() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.recipe, "recipes/soup.md", in: .a)
        try replicas.write(Self.recipe, "recipes/stew.md", in: .a)
        try replicas.write("milk\neggs\n", "notes/list.txt", in: .a)
        _ = try replicas.sync()
        // Syncthing on B kept its own edit and saved the laptop's concurrent one as a copy.
        try replicas.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "recipes/soup.md", in: .b)
        try replicas.write(Self.recipe.replacingOccurrences(of: "servings: 2", with: "servings: 4"),
                           "recipes/soup.sync-conflict-20261130-120000-ABCDEF1.md", in: .b)
        // Dropbox on A did the same with another file.
        try replicas.write("milk\neggs\nbread\n", "notes/list.txt", in: .a)
        try replicas.write("oat milk\neggs\n", "notes/list (Anna's conflicted copy 2026-11-30).txt", in: .a)
        // A copy that really conflicts stays.
        try replicas.write(Self.recipe.replacingOccurrences(of: "title: Soup", with: "title: Stew"), "recipes/stew.md", in: .a)
        try replicas.write(Self.recipe.replacingOccurrences(of: "title: Soup", with: "title: Ragout"),
                           "recipes/stew.sync-conflict-20261130-120000-ABCDEF1.md", in: .a)
        let report = try replicas.sync()
        #expect(Set(report.folded) == ["recipes/soup.sync-conflict-20261130-120000-ABCDEF1.md", "notes/list (Anna's conflicted copy 2026-11-30).txt"])
        let soup = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4")
        #expect(replicas.read("recipes/soup.md", in: .a) == soup && replicas.read("recipes/soup.md", in: .b) == soup)
        #expect(replicas.read("notes/list.txt", in: .b) == "oat milk\neggs\nbread\n")
        #expect(replicas.read("recipes/stew.sync-conflict-20261130-120000-ABCDEF1.md", in: .b)?.contains("Ragout") == true)
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
    }

    /// iCloud's `soup 2.md` is folded by the pair's sync only where `folio.yaml` says
    /// iCloud syncs the folder; elsewhere it is a file of its own, copied as one.
    @Test func anICloudCopyIsFoldedOnlyWhereFolioYAMLNamesICloud() throws {
        for declared in [false, true] {
            let replicas = try Replicas()
            defer { replicas.remove() }
            if declared { try replicas.write("conflictCopies: [icloud]\n", "folio.yaml", in: .a) }
            try replicas.write(Self.recipe, "recipes/soup.md", in: .a)
            _ = try replicas.sync()
            try replicas.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "recipes/soup.md", in: .b)
            try replicas.write(Self.recipe.replacingOccurrences(of: "servings: 2", with: "servings: 4"), "recipes/soup 2.md", in: .b)
            let report = try replicas.sync()
            if declared {
                #expect(report.folded == ["recipes/soup 2.md"])
                let soup = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 2", with: "servings: 4")
                #expect(replicas.read("recipes/soup.md", in: .a) == soup && replicas.read("recipes/soup 2.md", in: .b) == nil)
            } else {
                #expect(report.folded.isEmpty)
                #expect(replicas.read("recipes/soup 2.md", in: .a) != nil)
            }
            #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
        }
    }

    @Test func namesThatDifferOnlyByCaseAreReportedAndLeftAlone() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("a\n", "Soup.md", in: .a)
        try replicas.write("b\n", "soup.md", in: .b)
        let report = try replicas.sync()
        #expect(report.skipped["Soup.md"]?.contains("differ only by case") == true && report.skipped["soup.md"] != nil)
        #expect(replicas.read("soup.md", in: .a) == nil && replicas.read("Soup.md", in: .b) == nil)
    }

    @Test func aFiftyMegabyteFileAndInvalidUTF8TravelAsTheyAre() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        var big = [UInt8](repeating: 0, count: 50 << 20)
        for i in stride(from: 0, to: big.count, by: 4096) { big[i] = UInt8(truncatingIfNeeded: i >> 12) }
        try Data(big).write(to: URL(fileURLWithPath: replicas.path(.a, "photo.raw")))
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: replicas.path(.a, "odd.md")))
        _ = try replicas.sync()
        #expect(FileManager.default.contents(atPath: replicas.path(.b, "photo.raw")) == Data(big))
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
        // Both change the invalid file: it cannot be merged as a document, and nothing is lost.
        try Data([0xFF, 0x01, 0x0A]).write(to: URL(fileURLWithPath: replicas.path(.a, "odd.md")))
        try Data([0xFE, 0x02, 0x0A]).write(to: URL(fileURLWithPath: replicas.path(.b, "odd.md")))
        let report = try replicas.sync()
        #expect(report.conflicts.count == 1)
        let contents = Set(Replicas.files(under: replicas.a).filter { $0.key.hasPrefix("odd") }.values)
        #expect(contents == [Data([0xFF, 0x01, 0x0A]), Data([0xFE, 0x02, 0x0A])])
    }

    @Test func temporaryFilesOfAKilledSyncAreRemovedOnceStale() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("half\n", ".soup.md.folio-123-0.tmp", in: .a)
        try replicas.write("fresh\n", ".stew.md.folio-456-0.tmp", in: .a)
        let old = Date(timeIntervalSinceNow: -7_200)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: replicas.path(.a, ".soup.md.folio-123-0.tmp"))
        let report = try replicas.sync()
        #expect(report.removedTemporaries == ["A:.soup.md.folio-123-0.tmp"])
        #expect(replicas.read(".stew.md.folio-456-0.tmp", in: .a) == "fresh\n")
        #expect(replicas.read(".stew.md.folio-456-0.tmp", in: .b) == nil)
    }

    @Test func aDocumentRenamedAndEditedIsFollowedByItsID() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let merged = try replicas.renameAndEditOnTheLaptopWhileThePhoneEdits()
        let report = try replicas.sync()
        #expect(report.moved == ["recipes/soup.md → recipes/leek-soup.md"])
        #expect(replicas.read("recipes/leek-soup.md", in: .a) == merged && replicas.read("recipes/leek-soup.md", in: .b) == merged)
        #expect(replicas.read("recipes/soup.md", in: .a) == nil && replicas.read("recipes/soup.md", in: .b) == nil)
        let again = try replicas.sync()
        #expect(again.moved.isEmpty && again.copied.isEmpty && again.merged.isEmpty)
    }

    @Test func twoDeletesOfOnePathInOneSecondKeepBothVersions() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("keep\n", "other.txt", in: .a)
        for version in ["first\n", "second\n"] {
            try replicas.write(version, "note.txt", in: .a)
            _ = try replicas.sync()
            try FileManager.default.removeItem(atPath: replicas.path(.a, "note.txt"))
            #expect(try replicas.sync().deleted == ["note.txt"])
        }
        let trashed = Set(Replicas.files(under: replicas.state + "/trash").values.map { String(decoding: $0, as: UTF8.self) })
        #expect(trashed == ["first\n", "second\n"])
    }

    @Test func aRuleAddedToFolioignoreOnOneSideDeletesNothingOnTheOther() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("draft\n", "drafts/a.md", in: .a)
        try replicas.write("kept\n", "notes/kept.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("drafts/\n", ".folioignore", in: .a)
        let report = try replicas.sync()
        #expect(report.deleted.isEmpty)
        #expect(replicas.read("drafts/a.md", in: .b) == "draft\n" && replicas.read("drafts/a.md", in: .a) == "draft\n")
    }
}

extension SyncEngineTests {
    static func folderExists(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    @Test func foldersAreCreatedAndRemovedAsTheOtherSideDid() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try FileManager.default.createDirectory(atPath: replicas.path(.a, "empty/inner"), withIntermediateDirectories: true)
        try replicas.write("x\n", "old/one.md", in: .a)
        try replicas.write("y\n", "kept/two.md", in: .a)
        try replicas.write("z\n", "stays.md", in: .a)
        let first = try replicas.sync()
        #expect(first.copied == ["empty/", "empty/inner/", "kept/two.md", "old/one.md", "stays.md"])
        #expect(Self.folderExists(replicas.path(.b, "empty/inner")))
        #expect(first.files == 3)
        // A removes a folder with its file, and an empty one; B adds a file to a folder A removes.
        try FileManager.default.removeItem(atPath: replicas.path(.a, "old"))
        try FileManager.default.removeItem(atPath: replicas.path(.a, "empty/inner"))
        try FileManager.default.removeItem(atPath: replicas.path(.a, "kept"))
        try replicas.write("new on B\n", "kept/three.md", in: .b)
        let second = try replicas.sync()
        #expect(second.deleted == ["empty/inner/", "kept/two.md", "old/", "old/one.md"])
        #expect(!Self.folderExists(replicas.path(.b, "old")) && !Self.folderExists(replicas.path(.b, "empty/inner")))
        #expect(Self.folderExists(replicas.path(.b, "empty")))
        // The folder B still uses is kept on B, and comes back on A with the new file.
        #expect(replicas.read("kept/three.md", in: .a) == "new on B\n")
        #expect(replicas.read("kept/two.md", in: .b) == nil)
        let third = try replicas.sync()
        #expect(third.copied.isEmpty && third.deleted.isEmpty && third.skipped.isEmpty)
    }

    @Test func aFileAndAFolderTradePlacesInOneSync() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("file\n", "x", in: .a)
        try replicas.write("in folder\n", "y/a.md", in: .a)
        try replicas.write("z\n", "z.md", in: .a)
        _ = try replicas.sync()
        try FileManager.default.removeItem(atPath: replicas.path(.a, "x"))
        try replicas.write("now a folder\n", "x/a.md", in: .a)
        try FileManager.default.removeItem(atPath: replicas.path(.a, "y"))
        try replicas.write("now a file\n", "y", in: .a)
        let report = try replicas.sync()
        #expect(report.skipped.isEmpty && report.replicasAgree)
        #expect(replicas.read("x/a.md", in: .b) == "now a folder\n")
        #expect(replicas.read("y", in: .b) == "now a file\n")
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
    }

    @Test func aFolderIsNotRecordedWhereAFileHoldsItsName() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("z\n", "z.md", in: .a)
        try FileManager.default.createDirectory(atPath: replicas.path(.a, "x"), withIntermediateDirectories: true)
        try replicas.write("a file\n", "x", in: .b)
        // New on both sides: the folder keeps the name, the file is kept beside it as a
        // conflict copy, and both reach both replicas (once skipped forever, every sync).
        let first = try replicas.sync()
        guard let copy = (first.conflicts["x"] ?? nil)?.key else {
            Issue.record("no conflict: \(first)")
            return
        }
        #expect(copy.hasPrefix("x.sync-conflict-") && first.skipped.isEmpty)
        let second = try replicas.sync()
        #expect(second.copied.isEmpty && !second.foundProblems)
        for replica in Replica.allCases {
            #expect(Self.folderExists(replicas.path(replica, "x")))
            #expect(replicas.read(copy, in: replica) == "a file\n")
        }
    }

    @Test func aDeletionBesideACaseClashIsCarriedInTheSameSync() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("F\n", "Foo.md", in: .a)
        try replicas.write("b\n", "bar.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("f\n", "foo.md", in: .a)
        try FileManager.default.removeItem(atPath: replicas.path(.a, "bar.md"))
        try FileManager.default.removeItem(atPath: replicas.path(.b, "Foo.md"))
        let report = try replicas.sync()
        #expect(report.deleted == ["bar.md"])
        #expect(replicas.read("bar.md", in: .b) == nil)
    }
}
