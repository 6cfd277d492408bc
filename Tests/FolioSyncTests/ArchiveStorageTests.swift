@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

@Suite struct ArchiveStorageTests {
    static func entry(_ byte: UInt8) -> SyncArchive.Entry {
        let stamp = FileStamp(size: Int64(byte), modified: 1, changed: 2, inode: 3, type: .regular, permissions: 0o644)
        return SyncArchive.Entry(hash: SHA256.hash([byte]), size: Int64(byte), executable: false, stampA: stamp, stampB: stamp)
    }

    static func archive(_ count: Int) -> SyncArchive {
        var archive = SyncArchive()
        for index in 0..<count { archive.entries[SyncPath(file: "notes/\(index).md")] = entry(UInt8(index % 200)) }
        return archive
    }

    func withState(_ body: (ArchiveStorage) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-archive-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(ArchiveStorage(state: try RootedFolder.creating(folder)))
    }

    /// An archive past a megabyte is read in two halves on two cores: it reads back as
    /// written, and a damaged line in either half is named by its line in the file.
    @Test func aLargeArchiveReadsBackWholeAndNamesItsDamagedLine() throws {
        var archive = Self.archive(12_000)
        archive.entries["notes/with\ttab.md"] = Self.entry(7)
        let bytes = archive.serialized(generation: 3)
        #expect(bytes.count > 1 << 20)
        let (read, generation) = try SyncArchive.parse(bytes)
        #expect(read == archive && generation == 3)
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        for damaged in [2, lines.count / 2, lines.count / 2 + 1, lines.count / 2 + 2, lines.count - 1] {
            var broken = lines
            broken[damaged - 1] = broken[damaged - 1].prefix(20)
            #expect(throws: SyncError(.stateDamaged, "archive line \(damaged) is damaged")) {
                try SyncArchive.parse(Array(broken.joined(separator: [10])))
            }
        }
    }

    @Test func aSmallChangeIsAppendedAndReadBack() throws {
        try withState { storage in
            let first = Self.archive(100)
            try storage.save(first, known: SyncArchive(), loaded: try storage.load().loaded)
            var (second, loaded) = try storage.load()
            #expect(second == first && loaded.generation == 1 && loaded.logSize == 0)
            second.entries["notes/5.md"] = Self.entry(250)
            second.entries["notes/6.md"] = nil
            second.entries["new\tname.md"] = Self.entry(251)
            try storage.save(second, known: first, loaded: loaded)
            let snapshot = try FileReading.contents(of: storage.snapshotPath)
            let log = String(decoding: try FileReading.contents(of: storage.logPath), as: UTF8.self)
            #expect(log.hasSuffix("-\tnotes/6.md\ncommit\t1\n") && log.split(separator: "\n").count == 4)
            let (third, loadedAgain) = try storage.load()
            #expect(third == second)
            #expect(loadedAgain.generation == 1 && !loadedAgain.torn)
            // The snapshot was not rewritten.
            #expect(try FileReading.contents(of: storage.snapshotPath) == snapshot)
        }
    }

    @Test func aBlockCutShortIsIgnoredAndTheNextSaveIsASnapshot() throws {
        try withState { storage in
            let first = Self.archive(100)
            try storage.save(first, known: SyncArchive(), loaded: try storage.load().loaded)
            var second = first
            second.entries["notes/1.md"] = Self.entry(252)
            try storage.save(second, known: first, loaded: try storage.load().loaded)
            var third = second
            third.entries["notes/2.md"] = Self.entry(253)
            try storage.save(third, known: second, loaded: try storage.load().loaded)
            // A crash in the middle of the third save's block: cut anywhere inside it.
            let log = try FileReading.contents(of: storage.logPath)
            let secondBlockStart = log.firstIndex(of: 10).map { log[log.index(after: $0)...].firstIndex(of: 10)! + 1 }!
            for cut in (secondBlockStart + 1)..<log.count {
                try AtomicFile.write(Array(log[..<cut]), to: storage.logPath)
                let (loadedArchive, loaded) = try storage.load()
                #expect(loadedArchive == second, "cut at \(cut)")
                #expect(loaded.torn, "cut at \(cut)")
            }
            // The next save does not append after the torn block: it writes a snapshot.
            let loaded = try storage.load().loaded
            try storage.save(third, known: second, loaded: loaded)
            #expect(!FileManager.default.fileExists(atPath: storage.logPath.path))
            let (reloaded, after) = try storage.load()
            #expect(reloaded == third && after.generation == 2)
        }
    }

    @Test func blocksOfAnOlderGenerationAreIgnoredAndABigLogBecomesASnapshot() throws {
        try withState { storage in
            let first = Self.archive(100)
            try storage.save(first, known: SyncArchive(), loaded: try storage.load().loaded)
            var current = first
            // Change a path per save until the log passes a quarter of the snapshot.
            var generations: [Int] = []
            for index in 0..<40 {
                let loaded = try storage.load().loaded
                var next = current
                next.entries[SyncPath(file: "notes/\(index).md")] = Self.entry(UInt8(200 + index % 50))
                try storage.save(next, known: current, loaded: loaded)
                current = next
                generations.append(try storage.load().loaded.generation)
                #expect(try storage.load().archive == current)
            }
            #expect(generations.first == 1 && generations.last! > 1)
            // A log left from before the last snapshot (its removal lost in a crash) is ignored.
            var loaded = try storage.load().loaded
            loaded.torn = true  // forces a snapshot
            try storage.save(current, known: current, loaded: loaded)
            #expect(!FileManager.default.fileExists(atPath: storage.logPath.path))
            var stale: [UInt8] = []
            SyncArchive.appendLine("notes/0.md", Self.entry(7), to: &stale)
            try AtomicFile.write(stale + Array("commit\t\(loaded.generation)\n".utf8), to: storage.logPath)
            #expect(try storage.load().loaded.generation == loaded.generation + 1)
            #expect(try storage.load().archive == current)
        }
    }
}
