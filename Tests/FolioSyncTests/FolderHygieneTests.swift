import CFolioSystem
import FolioFolder
@testable import FolioFormat
@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// What is never a user's data to delete or a record to sync: only Folio's own
/// temporary files (by their exact name) are cleared, into the trash; the files every
/// Mac and FAT stick makes are neither synced nor indexed; a new file follows the umask.
@Suite struct FolderHygieneTests {
    @Test func onlyFolioSExactTemporaryNamesAreClearedAndThenIntoTheTrash() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let old = Date(timeIntervalSinceNow: -7_200)
        for name in [".notes.folio-backup.tmp", ".soup.md.folio-123-0.tmp"] {
            try replicas.write("\(name)\n", name, in: .a)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: replicas.path(.a, name))
        }
        let report = try replicas.sync()
        #expect(report.removedTemporaries == ["A:.soup.md.folio-123-0.tmp"])
        // The user's file is synced like any other; Folio's own is in the trash.
        #expect(replicas.read(".notes.folio-backup.tmp", in: .a) == ".notes.folio-backup.tmp\n")
        #expect(replicas.read(".notes.folio-backup.tmp", in: .b) == ".notes.folio-backup.tmp\n")
        #expect(Trash(state: try RootedFolder.creating(replicas.state)).items().map(\.path) == [".soup.md.folio-123-0.tmp"])
        #expect(ReplicaScan.isFolioTemporary(".soup.md.folio-4294967295-7.tmp"))
        #expect(!ReplicaScan.isFolioTemporary(".folio-1-2.tmp") && !ReplicaScan.isFolioTemporary(".a.folio-1.tmp") && !ReplicaScan.isFolioTemporary(".a.folio-x-1.tmp"))
    }

    @Test func aKilledSyncsTemporaryFilesGoAtTheNextSyncNotAnHourLater() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("---\ntitle: Soup\n---\n", "soup.md", in: .a)
        _ = try replicas.sync()
        // As a sync killed mid-write leaves things: its tag listed in the state folder, a
        // fresh temporary file carrying it. Another fresh one, of a run never listed
        // (an app's store writing right now), stays.
        let killed: UInt32 = 4_000_000_001, unknown: UInt32 = 4_000_000_002
        try Data("\(killed)\n".utf8).write(to: URL(fileURLWithPath: replicas.state + "/runs"))
        try replicas.write("half a sou", ".soup.md.folio-\(killed)-0.tmp", in: .b)
        try replicas.write("being written", ".soup.md.folio-\(unknown)-0.tmp", in: .a)
        let report = try replicas.sync()
        #expect(report.removedTemporaries == ["B:.soup.md.folio-\(killed)-0.tmp"])
        #expect(Trash(state: try RootedFolder.creating(replicas.state)).items().map(\.path) == [".soup.md.folio-\(killed)-0.tmp"])
        #expect(replicas.read(".soup.md.folio-\(unknown)-0.tmp", in: .a) == "being written")
        // The finished run is no longer listed, nor is the one whose leftovers are gone.
        #expect(RunRecord(state: try RootedFolder.creating(replicas.state)).tags().isEmpty)
    }

    @Test func aNameThatIsNotUTF8IsReportedAsAProblemNotPassedOverInSilence() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("ok\n", "ok.md", in: .a)
        // `\xFF.md` and `caf\xE9.md` (Latin-1), made with raw bytes: Foundation cannot spell them.
        for name: [UInt8] in [[0xFF] + Array(".md".utf8), Array("caf".utf8) + [0xE9] + Array(".md".utf8)] {
            try Self.create(name, in: replicas.a, holding: "")
        }
        let report = try replicas.sync()
        #expect(report.copied == ["ok.md"])
        #expect(Set(report.skipped.keys) == ["A:\\xFF.md", "A:caf\\xE9.md"])
        #expect(report.skipped["A:\\xFF.md"]?.hasPrefix("the name is not valid UTF-8") == true)
        #expect(report.foundProblems, "folio sync must exit 1 for a file it could not sync")
        #expect(Syscall.escapedName([0x61, 0xC3, 0xA9, 0xFF, 0x62]) == "aé\\xFFb")
    }

    static let nfc = Array("caf\u{E9}.md".utf8)
    static let nfd = Array("cafe\u{301}.md".utf8)

    @Test func oneNameInNFDHereAndNFCThereIsOneFileAndConverges() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try Self.create(Self.nfd, in: replicas.a, holding: "---\ntitle: Café\nservings: 2\n---\n")
        try Self.create(Self.nfc, in: replicas.b, holding: "---\ntitle: Café\nservings: 2\n---\n")
        let first = try replicas.sync()
        #expect(first.normalized == ["A:caf\u{E9}.md"])
        #expect(first.changedDuringSync.isEmpty && first.skipped.isEmpty && !first.foundProblems)
        #expect(try Self.names(in: replicas.a) == [Self.nfc] && Self.names(in: replicas.b) == [Self.nfc])
        // Edited on one side afterwards (by a Mac tool that writes NFD again): still one file.
        try FileManager.default.removeItem(atPath: replicas.a + "/caf\u{E9}.md")
        try Self.create(Self.nfd, in: replicas.a, holding: "---\ntitle: Café\nservings: 4\n---\n")
        let second = try replicas.sync()
        #expect(second.changedDuringSync.isEmpty && !second.foundProblems, "\(second)")
        #expect(replicas.read("caf\u{E9}.md", in: .b) == "---\ntitle: Café\nservings: 4\n---\n")
        let third = try replicas.sync()
        #expect(third.copied.isEmpty && third.merged.isEmpty && third.normalized.isEmpty && !third.foundProblems)
    }

    @Test func bothSpellingsInOneFolderAreReportedAndLeftAlone() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try Self.create(Self.nfc, in: replicas.a, holding: "precomposed\n")
        try Self.create(Self.nfd, in: replicas.a, holding: "decomposed\n")
        try replicas.write("x\n", "other.md", in: .a)
        for _ in 0..<2 {
            let report = try replicas.sync()
            #expect(report.copied.allSatisfy { $0 == "other.md" })
            #expect(report.skipped["A:caf\u{E9}.md"]?.contains("differ only by Unicode normalization") == true)
            #expect(report.foundProblems && report.normalized.isEmpty)
        }
        // Neither was renamed, overwritten or copied.
        #expect(try Set(Self.names(in: replicas.a)) == [Self.nfc, Self.nfd, Array("other.md".utf8)])
        #expect(try Self.names(in: replicas.b) == [Array("other.md".utf8)])
    }

    @Test func aFileHereAndAFolderOfTheSameNameThereBothSurviveAndConverge() throws {
        for fileSide in Replica.allCases {
            let replicas = try Replicas()
            defer { replicas.remove() }
            try replicas.write("one\n", "x.md", in: fileSide)
            _ = try replicas.sync()
            // The other side makes the name a folder; this side edits the file.
            try FileManager.default.removeItem(atPath: replicas.path(fileSide.other, "x.md"))
            try replicas.write("inner\n", "x.md/inner.md", in: fileSide.other)
            try replicas.write("edited\n", "x.md", in: fileSide)
            let first = try replicas.sync()
            guard let copy = (first.conflicts["x.md"] ?? nil)?.key else {
                Issue.record("no conflict reported: \(first)")
                continue
            }
            #expect(copy.hasPrefix("x.sync-conflict-") && copy.hasSuffix("-\(fileSide.rawValue).md"))
            #expect(first.foundProblems && first.skipped.isEmpty && first.changedDuringSync.isEmpty)
            for replica in Replica.allCases {
                #expect(replicas.read("x.md/inner.md", in: replica) == "inner\n")
                #expect(replicas.read(copy, in: replica) == "edited\n")
            }
            let second = try replicas.sync()
            #expect(!second.foundProblems && second.copied.isEmpty && second.deleted.isEmpty, "\(second)")
        }
    }

    /// Creates the file `name` (raw bytes: Foundation may respell them) in `folder`.
    static func create(_ name: [UInt8], in folder: String, holding text: String) throws {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
        }
        #expect(fd >= 0)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The names in `folder` as the file system spells them, sorted.
    static func names(in folder: String) throws -> [[UInt8]] {
        let names = try RootedFolder(folder).root.entries().map { Array($0.name.utf8) }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func theFilesMacsAndFATSticksMakeAreNeitherSyncedNorRecords() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let junk = [".DS_Store", "recipes/._soup.md", ".Spotlight-V100/Store-V2/index", ".Trashes/501/x.md", ".fseventsd/0001", "Icon\r", "Thumbs.db"]
        for path in junk + ["recipes/soup.md"] { try replicas.write("---\ntitle: x\n---\n", path, in: .a) }
        let report = try replicas.sync()
        #expect(report.copied == ["recipes/soup.md"])
        #expect(Replicas.files(under: replicas.b).keys.sorted() == ["recipes/soup.md"])
        #expect(!FolderRules.isRecordPath("recipes/._soup.md") && !FolderRules.isRecordPath(".Trashes/501/x.md"))
    }

    @Test func aNameNear255BytesIsSynced() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let name = String(repeating: "é", count: 115) + ".md"   // 233 bytes
        try replicas.write("---\ntitle: Long\n---\n", name, in: .a)
        let report = try replicas.sync()
        #expect(report.copied == [name] && report.skipped.isEmpty)
        #expect(replicas.read(name, in: .b) == "---\ntitle: Long\n---\n")
    }

    @Test func aNewFileFollowsTheUmaskAndAReplacedOneKeepsItsMode() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let path = replicas.path(.a, "new.md")
        try AtomicFile.write(Array("a\n".utf8), to: path)
        #expect(try FileStamp.of(path).permissions == 0o666 & ~Self.currentUmask())
        chmod(path, 0o600)
        try AtomicFile.write(Array("b\n".utf8), to: path)
        #expect(try FileStamp.of(path).permissions == 0o600)
    }

    /// Sets an extended attribute; false where the file system has none.
    static func setAttribute(_ name: String, _ value: String, on path: String) throws -> Bool {
        let bytes = Array(value.utf8)
        #if canImport(Darwin)
        let result = setxattr(path, name, bytes, bytes.count, 0, 0)
        #else
        let result = setxattr(path, name, bytes, bytes.count, 0)
        #endif
        if result != 0 && errno == ENOTSUP { return false }
        #expect(result == 0, "setxattr: errno \(errno)")
        return true
    }

    /// An extended attribute's value, or nil.
    static func attribute(_ name: String, of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        #if canImport(Darwin)
        let length = getxattr(path, name, &buffer, buffer.count, 0, 0)
        #else
        let length = getxattr(path, name, &buffer, buffer.count)
        #endif
        return length < 0 ? nil : String(decoding: buffer[..<length], as: UTF8.self)
    }

    /// The process's umask, read without setting it (other tests run beside this one).
    static func currentUmask() throws -> UInt32 {
        #if os(Linux)
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(UInt32(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8))
        #else
        let mask = umask(0o022)
        umask(mask)
        return UInt32(mask)
        #endif
    }

    @Test func aSyncNeverWidensPermissions() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let mask = try Self.currentUmask()
        func mode(_ path: String, _ replica: Replica) throws -> UInt32 { try FileStamp.of(replicas.path(replica, path)).permissions }
        try replicas.write("---\ntitle: Private\n---\none\ntwo\nthree\n", "private.md", in: .a)
        try replicas.write("---\ntitle: Shared\n---\none\ntwo\nthree\n", "shared.md", in: .a)
        chmod(replicas.path(.a, "private.md"), 0o600)
        chmod(replicas.path(.a, "shared.md"), 0o664)
        _ = try replicas.sync()
        // A new file gets its source's permissions narrowed by the umask, as cp makes one.
        #expect(try mode("private.md", .b) == 0o600 & ~mask)
        #expect(try mode("shared.md", .b) == 0o664 & ~mask)

        // A replaced file keeps its own mode and extended attributes, whether copied over or merged into.
        chmod(replicas.path(.b, "shared.md"), 0o640)
        let tagged = try Self.setAttribute("user.folio.tag", "blue", on: replicas.path(.b, "shared.md"))
        try replicas.write("---\ntitle: Shared\n---\nONE\ntwo\nthree\n", "shared.md", in: .a)
        #expect(try replicas.sync().copied == ["shared.md"])
        #expect(try mode("shared.md", .b) == 0o640 && mode("shared.md", .a) == 0o664)
        #expect(!tagged || Self.attribute("user.folio.tag", of: replicas.path(.b, "shared.md")) == "blue")
        try replicas.write("---\ntitle: Shared\n---\nONE\ntwo\nTHREE\n", "shared.md", in: .b)
        try replicas.write("---\ntitle: Shared\n---\nOne\ntwo\nthree\n", "shared.md", in: .a)
        _ = try replicas.sync()
        #expect(replicas.read("shared.md", in: .a) == "---\ntitle: Shared\n---\nOne\ntwo\nTHREE\n")
        #expect(try mode("shared.md", .b) == 0o640 && mode("shared.md", .a) == 0o664)

        // A conflict copy is as private as the file it copies.
        try replicas.write("---\ntitle: Private\n---\nmine\ntwo\nthree\n", "private.md", in: .a)
        try replicas.write("---\ntitle: Private\n---\ntheirs\ntwo\nthree\n", "private.md", in: .b)
        let report = try replicas.sync()
        let copy = try #require((report.conflicts["private.md"] ?? nil)?.key)
        #expect(try mode(copy, .a) == 0o600 & ~mask && mode(copy, .b) == 0o600 & ~mask)
        #expect(try mode("private.md", .a) == 0o600 && mode("private.md", .b) == 0o600 & ~mask)
    }
}
