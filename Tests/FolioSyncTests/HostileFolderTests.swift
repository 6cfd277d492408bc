import Foundation
import Testing
@testable import FolioShared
@testable import FolioSync
@testable import FolioVersions
import FolioSystem
import FolioTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A replica or shared folder that someone else writes, tried as that other party
/// would: links in place of folders, files and settings files, FIFOs, an attacker's
/// `.folioignore`. A canary folder outside every replica, shared folder and state
/// folder holds a secret; after each case it is unchanged, and the secret is nowhere
/// Folio writes.
@Suite struct HostileFolderTests {
    static let secret = "CANARY-SECRET"

    /// Two replicas and a canary beside them.
    struct Setup {
        let replicas: Replicas
        var canary: String { replicas.root.appendingPathComponent("canary").path }

        init() throws {
            replicas = try Replicas()
            try FileManager.default.createDirectory(atPath: canary, withIntermediateDirectories: true)
            for name in ["soup.md", "n1.md", "rules"] {
                try Data("---\ntitle: \(HostileFolderTests.secret)\n---\n".utf8).write(to: URL(fileURLWithPath: canary + "/" + name))
            }
        }

        func canaryFiles() -> [String: Data] { Replicas.files(under: canary) }

        /// Whether any file under `folder` holds the secret.
        /// (A link the test itself placed is not a file Folio wrote: it is passed over.)
        func leaked(into folder: String) -> [String] {
            Replicas.files(under: folder).filter { entry in
                !HostileFolderTests.isThroughALink(entry.key, in: folder) && String(decoding: entry.value, as: UTF8.self).contains(HostileFolderTests.secret)
            }.keys.sorted()
        }

        func expectNothingLeaked(_ before: [String: Data]) {
            #expect(canaryFiles() == before)
            for folder in [replicas.a, replicas.b, replicas.state] { #expect(leaked(into: folder) == [], "\(folder)") }
        }
    }

    /// Whether `path` below `folder`, or a folder on its way, is a symbolic link.
    static func isThroughALink(_ path: String, in folder: String) -> Bool {
        var walked = folder
        for part in path.split(separator: "/") {
            walked += "/" + part
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: walked)) != nil { return true }
        }
        return false
    }

    @Test func aFolderOfBThatIsALinkIsNeitherWrittenNorRead() throws {
        let setup = try Setup()
        defer { setup.replicas.remove() }
        for index in 0..<5 { try setup.replicas.write("---\ntitle: n\(index)\n---\n", "sub/n\(index).md", in: .a) }
        try FileManager.default.createSymbolicLink(atPath: setup.replicas.b + "/sub", withDestinationPath: setup.canary)
        let before = setup.canaryFiles()
        let report = try setup.replicas.sync()
        setup.expectNothingLeaked(before)
        #expect(report.copied.filter { $0.hasPrefix("sub/") } == [])
        #expect(report.skipped["B:sub"]?.contains("symbolic link") == true || report.skipped.keys.contains { $0.hasPrefix("B:sub") })
    }

    @Test func aFileOfAThatIsALinkIsNeverReadNorCopied() throws {
        let setup = try Setup()
        defer { setup.replicas.remove() }
        try FileManager.default.createSymbolicLink(atPath: setup.replicas.a + "/soup.md", withDestinationPath: setup.canary + "/soup.md")
        let before = setup.canaryFiles()
        let report = try setup.replicas.sync()
        setup.expectNothingLeaked(before)
        #expect(report.skipped["A:soup.md"]?.contains("symbolic link") == true)
    }

    @Test func restoreDoesNotWriteThroughALinkThatReplacedAFolder() throws {
        let setup = try Setup()
        defer { setup.replicas.remove() }
        try setup.replicas.write("---\ntitle: soup\n---\n", "sub/soup.md", in: .a)
        try setup.replicas.write("---\ntitle: bread\n---\n", "bread.md", in: .a)
        _ = try setup.replicas.sync()
        try FileManager.default.removeItem(atPath: setup.replicas.a + "/sub/soup.md")
        _ = try setup.replicas.sync()
        // B's copy is in the trash; B's folder is then swapped for a link.
        try FileManager.default.removeItem(atPath: setup.replicas.b + "/sub")
        try FileManager.default.createSymbolicLink(atPath: setup.replicas.b + "/sub", withDestinationPath: setup.canary)
        let before = setup.canaryFiles()
        let trash = Trash(state: try RootedFolder(setup.replicas.state))
        let item = try #require(trash.items().first { $0.path == "sub/soup.md" && $0.replica == .b })
        #expect(throws: SyncError.self) { try trash.restore(item, into: RootedFolder(setup.replicas.b)) }
        setup.expectNothingLeaked(before)
    }

    @Test func settingsFilesThatAreLinksOrFIFOsAreNotRead() throws {
        let setup = try Setup()
        defer { setup.replicas.remove() }
        try setup.replicas.write("---\ntitle: soup\n---\n", "soup.md", in: .a)
        // B's .folioignore links to a file elsewhere that would ignore every record; A's is a FIFO.
        try Data("*.md\n".utf8).write(to: URL(fileURLWithPath: setup.canary + "/rules"))
        try FileManager.default.createSymbolicLink(atPath: setup.replicas.b + "/.folioignore", withDestinationPath: setup.canary + "/rules")
        #expect(mkfifo(setup.replicas.a + "/.folioignore", 0o644) == 0)
        let before = setup.canaryFiles()
        let report = try setup.replicas.sync()
        #expect(report.copied.contains("soup.md"))
        #expect(report.heldBack == [])
        setup.expectNothingLeaked(before)
    }

    @Test func anAttackersIgnoreRuleInBIsNamedAndNeverCopiedIntoA() throws {
        let setup = try Setup()
        defer { setup.replicas.remove() }
        try setup.replicas.write("---\ntitle: soup\ntime: 15m\n---\n", "soup.md", in: .a)
        try setup.replicas.write("---\ntitle: bread\n---\n", "bread.md", in: .a)
        _ = try setup.replicas.sync()
        try setup.replicas.write("soup.md\n", ".folioignore", in: .b)
        try setup.replicas.write("---\ntitle: soup\ntime: 20m\n---\n", "soup.md", in: .a)
        let report = try setup.replicas.sync()
        #expect(report.heldBack == ["A:soup.md"])
        #expect(!FileManager.default.fileExists(atPath: setup.replicas.a + "/.folioignore"))
        // The rule removed, A's edit goes across as an edit: no conflict copy.
        try FileManager.default.removeItem(atPath: setup.replicas.b + "/.folioignore")
        let after = try setup.replicas.sync()
        #expect(after.conflicts.isEmpty)
        #expect(after.heldBack == [])
        #expect(setup.replicas.read("soup.md", in: .b)?.contains("time: 20m") == true)
    }

    @Test func theFoldNeverReadsThroughALinkNorRecordsWhatItPointsTo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("shared").path, canary = root.appendingPathComponent("canary").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: canary, withIntermediateDirectories: true)
        try Data("---\ntitle: \(Self.secret)\n---\n".utf8).write(to: URL(fileURLWithPath: canary + "/secret.md"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/soup.md", withDestinationPath: canary + "/secret.md")
        try Data("---\ntitle: soup\n---\n".utf8).write(to: URL(fileURLWithPath: folder + "/soup.sync-conflict-20261201-120000-ABCDEFG.md"))
        var options = FoldOptions()
        options.stateDirectory = root.appendingPathComponent("state").path
        options.quietPeriod = .zero
        let shared = try SharedFolder(folder, options: options)
        _ = try shared.record()
        for _ in 0..<3 { _ = shared.fold() }
        #expect(shared.historyEvents(at: "soup.md").isEmpty)
        #expect(FileManager.default.contents(atPath: canary + "/secret.md") == Data("---\ntitle: \(Self.secret)\n---\n".utf8))
        for place in [folder, root.appendingPathComponent("state").path] {
            let files = Replicas.files(under: place).filter { !$0.key.hasPrefix("soup.md") }
            #expect(files.filter { String(decoding: $0.value, as: UTF8.self).contains(Self.secret) }.isEmpty, "\(place)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/soup.md") == canary + "/secret.md")
    }
}
