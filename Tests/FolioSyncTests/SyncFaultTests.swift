@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Faults met mid-sync, made to happen with fault injection (the tests run as root, so
/// permissions cannot deny anything): each must leave every version on disk, report what
/// happened, and let the next sync finish the job.
@Suite struct SyncFaultTests {
    func sync(_ replicas: Replicas, failing failure: @escaping @Sendable (SystemError.Operation, String) -> Int32?) throws -> SyncReport {
        try replicas.sync(failing: failure)
    }

    /// The archive cannot be saved: what was copied is reported all the same, with the
    /// state's problem and its fix, and the next sync finishes.
    @Test func anArchiveThatCannotBeSavedStillReportsWhatWasCopied() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\n", "one.md", in: .a)
        let report = try sync(replicas) { operation, path in
            operation == .open && path.contains("/state/.archive.folio-") ? ENOSPC : nil
        }
        #expect(report.copied == ["one.md"])
        #expect(report.couldNotWriteState)
        #expect(report.skipped[SyncReport.stateKey]?.contains("No space left on device. Free some space on that disk") == true)
        let next = try replicas.sync()
        #expect(next.skipped.isEmpty && next.replicasAgree)
    }

    /// A replica whose only file cannot be read is not empty: nothing of the other side is deleted.
    @Test func aReplicaWhoseOnlyFileIsUnreadableIsNotTakenForEmpty() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("only\n", "only.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("edited\n", "only.md", in: .a)
        let report = try sync(replicas) { operation, path in
            operation == .open && path.hasSuffix("laptop/only.md") ? EACCES : nil
        }
        #expect(report.skipped["A:only.md"]?.hasPrefix("cannot read it: Permission denied") == true)
        #expect(report.deleted.isEmpty)
        #expect(replicas.read("only.md", in: .b) == "only\n")
    }

    @Test func anUnreadableFileOrFolderIsLeftOutAndNothingOfItIsDeleted() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("kept\n", "private/diary.md", in: .a)
        try replicas.write("plain\n", "notes.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("new and secret\n", "secret.md", in: .a)
        try replicas.write("edited on B\n", "notes.md", in: .b)
        let report = try sync(replicas) { operation, path in
            if operation == .openDirectory && path.hasSuffix("laptop/private") { return EACCES }
            if operation == .open && path.hasSuffix("laptop/secret.md") { return EACCES }
            return nil
        }
        #expect(report.skipped["A:private"]?.contains("cannot read the folder") == true)
        #expect(report.skipped["A:secret.md"] == "cannot read it: Permission denied. Give your user read permission (chmod u+r, or ask its owner), "
            + "or name it in .folioignore to leave it out")
        // The folder A could not list is not "deleted on A": B keeps it.
        #expect(replicas.read("private/diary.md", in: .b) == "kept\n")
        #expect(replicas.read("secret.md", in: .b) == nil)
        // The rest of the sync went on.
        #expect(replicas.read("notes.md", in: .a) == "edited on B\n")
        let next = try replicas.sync()
        #expect(next.skipped.isEmpty)
        #expect(replicas.read("secret.md", in: .b) == "new and secret\n")
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
    }

    @Test func aFullDiskLosesNothingAndTheNextSyncFinishes() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(SyncEngineTests.recipe, "soup.md", in: .a)
        _ = try replicas.sync()
        try replicas.write(SyncEngineTests.recipe.replacingOccurrences(of: "15m", with: "20m"), "soup.md", in: .a)
        for index in 0..<20 { try replicas.write("note \(index)\n", "notes/\(index).md", in: .a) }
        // Every write into B fails as on a full disk.
        let report = try sync(replicas) { operation, path in
            operation == .write && path.contains("/phone/") ? ENOSPC : nil
        }
        #expect(report.skipped.keys.filter { $0.hasPrefix("B:") }.count == 21)
        // Said of the user's file, with the fix; never of Folio's temporary file.
        #expect(report.skipped["B:soup.md"] == "cannot write it: No space left on device. Free some space on that disk, then sync again")
        #expect(!report.skipped.values.contains { $0.contains(".folio-") })
        // B still holds its old version whole, and no half-written file or temporary file.
        #expect(replicas.read("soup.md", in: .b) == SyncEngineTests.recipe)
        #expect(Set(Replicas.files(under: replicas.b).keys) == ["soup.md"])
        let next = try replicas.sync()
        #expect(next.skipped.isEmpty && next.replicasAgree)
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
        #expect(replicas.read("soup.md", in: .b)?.contains("time: 20m") == true)
    }

    @Test func aFileAppendedToWhileItIsReadWaitsForTheNextSync() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("line 1\n", "log.md", in: .a)
        try replicas.write("steady\n", "other.md", in: .a)
        let log = replicas.path(.a, "log.md")
        let appends = Counter()
        // Each time the open log is looked at (once opened, and once read), a line is
        // appended to it first, as a program writing to it while it is read would: four
        // times, so that the second read sees it change too.
        let report = try sync(replicas) { operation, path in
            if operation == .stat && path.hasSuffix("laptop/log.md") && appends.next() <= 4 {
                let handle = FileHandle(forWritingAtPath: log)!
                handle.seekToEndOfFile()
                handle.write(Data("more\n".utf8))
                handle.closeFile()
            }
            return nil
        }
        #expect(report.skipped["A:log.md"] == "changing while it was read: left for the next sync")
        #expect(replicas.read("log.md", in: .b) == nil)
        #expect(replicas.read("other.md", in: .b) == "steady\n")
        _ = try replicas.sync()
        #expect(replicas.read("log.md", in: .b) == "line 1\n" + String(repeating: "more\n", count: 4))
    }

    @Test func aFileThatVanishesMidScanIsNotDeletedOnTheOtherSide() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\n", "gone.md", in: .a)
        try replicas.write("stays\n", "stays.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("two\n", "gone.md", in: .a)
        let gone = replicas.path(.a, "gone.md")
        // Listed with its new stamp, then deleted before it is read.
        let report = try sync(replicas) { operation, path in
            if operation == .open && path.hasSuffix("laptop/gone.md") { try? FileManager.default.removeItem(atPath: gone) }
            return nil
        }
        #expect(report.skipped["A:gone.md"]?.contains("No such file") == true)
        #expect(replicas.read("gone.md", in: .b) == "one\n")
        // Now it is simply deleted on A, and the next sync carries that over (into the trash).
        let next = try replicas.sync()
        #expect(next.deleted == ["gone.md"])
        #expect(replicas.read("gone.md", in: .b) == nil)
    }
}

extension SyncFaultTests {
    @Test func aSyncKilledBetweenAFoldAndItsTrashingFinishesTheFoldNextTime() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let base = "---\ntitle: Pie\n---\n## Steps\n1. a\n2. b\n"
        try replicas.write(base, "pie.md", in: .a)
        _ = try replicas.sync()
        // A step added first on A, and one added last in the copy: merged cleanly once, but
        // merged again into a file that already holds it, the renumbered step would conflict.
        try replicas.write(base.replacingOccurrences(of: "1. a\n2. b\n", with: "1. z\n2. a\n3. b\n"), "pie.md", in: .a)
        let copy = "pie.sync-conflict-20261130-120000-ABCDEF1.md"
        try replicas.write(base + "3. c\n", copy, in: .a)
        let merged = "---\ntitle: Pie\n---\n## Steps\n1. z\n2. a\n3. b\n4. c\n"
        // Killed as the copy goes to the trash: that and every write after it fail.
        let killed = Counter()
        _ = try? sync(replicas) { operation, path in
            if operation == .rename && path.contains("/trash/") { _ = killed.next() }
            return killed.value > 0 && [.write, .rename, .unlink, .sync, .makeDirectory].contains(operation) ? EIO : nil
        }
        #expect(killed.value > 0)
        #expect(replicas.read("pie.md", in: .a) == merged)
        #expect(replicas.read(copy, in: .a) == base + "3. c\n")
        #expect(FileManager.default.fileExists(atPath: replicas.state + "/folds"))
        let next = try replicas.sync()
        #expect(next.folded == [copy] && next.conflicts.isEmpty)
        #expect(replicas.read(copy, in: .a) == nil && replicas.read(copy, in: .b) == nil)
        #expect(replicas.read("pie.md", in: .b) == merged)
        #expect(!FileManager.default.fileExists(atPath: replicas.state + "/folds"))
    }

    @Test func aNameTheOtherFileSystemCannotHoldIsReportedAndLeftAlone() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("x\n", "notes/what: why?.md", in: .a)
        try replicas.write("y\n", "fine.md", in: .a)
        // As a FAT stick answers a name with `:` or `?`.
        let report = try sync(replicas) { operation, path in
            operation == .open && path.contains("/phone/") && path.contains("what: why?") ? EINVAL : nil
        }
        #expect(report.skipped["B:notes/what: why?.md"] == "the file system there cannot hold this name (Invalid argument): left alone; rename it to sync it")
        #expect(replicas.read("fine.md", in: .b) == "y\n")
        #expect(replicas.read("notes/what: why?.md", in: .a) == "x\n")
        // Left alone: not taken for a deletion on B, still there next time.
        let next = try sync(replicas) { operation, path in
            operation == .open && path.contains("/phone/") && path.contains("what: why?") ? EINVAL : nil
        }
        #expect(next.deleted.isEmpty && replicas.read("notes/what: why?.md", in: .a) == "x\n")
    }

    @Test func aFileThatCannotBeStatedIsNotTakenAsDeleted() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("kept\n", "private/diary.md", in: .a)
        try replicas.write("other\n", "other.md", in: .a)
        _ = try replicas.sync()
        // The stat of the file fails (a folder without search permission) on both sides,
        // every time: a sync that finds it failing once looks again the whole way.
        let report = try sync(replicas) { operation, path in
            operation == .stat && path == "private/diary.md" ? EACCES : nil
        }
        #expect(report.deleted.isEmpty)
        #expect(report.skipped.keys.contains { $0.hasSuffix(":private/diary.md") })
        #expect(replicas.read("private/diary.md", in: .a) == "kept\n" && replicas.read("private/diary.md", in: .b) == "kept\n")
    }

    @Test func aReplicaWhoseRootCannotBeListedIsRefused() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("x\n", "x.md", in: .a)
        _ = try replicas.sync()
        let root = replicas.a
        #expect(throws: SyncError.self) {
            try sync(replicas) { operation, path in operation == .openDirectory && path == root ? EIO : nil }
        }
        #expect(replicas.read("x.md", in: .b) == "x\n")
    }

    @Test func aDryRunAfterAKilledFoldKeepsItsJournal() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("notes\n", "a.md", in: .a)
        _ = try replicas.sync()
        let journal = FoldJournal(entries: [.init(
            replica: .a, copy: "a.sync-conflict-20261130-120000-ABCDEF1.md", original: "a.md",
            copyHash: SHA256.hash([1]), mergedHash: SHA256.hash([2]))])
        try journal.save(try RootedFolder.creating(replicas.state))
        try replicas.write("copy\n", "a.sync-conflict-20261130-120000-ABCDEF1.md", in: .a)
        _ = try replicas.sync { $0.dryRun = true }
        #expect(FoldJournal.load(try RootedFolder.creating(replicas.state)) == journal)
    }

    @Test func aMergeBaseThatCannotBeKeptIsReportedNotSilent() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        // Over 4 MB of text, so that the bases are written out during the sync, not only at its end.
        let line = String(repeating: "a line of a long text file ", count: 4) + "\n"
        for index in 0..<5 { try replicas.write(String(repeating: line, count: 10_000) + "\(index)\n", "long/\(index).md", in: .a) }
        final class Once: @unchecked Sendable {
            // Guarded by `lock`: the injection runs on the sync's copying threads.
            let lock = NSLock()
            var failed = false
            func first() -> Bool { lock.withLock { defer { failed = true }; return !failed } }
        }
        let once = Once()
        let report = try sync(replicas) { operation, path in
            operation == .write && path.hasSuffix("/bases.pack") && once.first() ? ENOSPC : nil
        }
        #expect(once.failed)
        #expect(report.skipped["state"]?.hasPrefix("cannot keep the merged version of long/") == true, "\(report.skipped)")
        #expect(report.skipped["state"]?.contains("No space left on device") == true)
        #expect(report.foundProblems && report.replicasAgree)
        #expect(Replicas.files(under: replicas.a) == Replicas.files(under: replicas.b))
    }
}
