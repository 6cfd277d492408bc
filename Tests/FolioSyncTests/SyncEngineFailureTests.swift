@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// A sync whose reads or writes the disk refuses: each failure stops the sync or is
/// reported, never taken for "nothing there" or "changed meanwhile". Faults are
/// injected, as the tests run as root and permissions deny nothing.
@Suite struct SyncEngineFailureTests {
    func sync(_ replicas: Replicas, failing failure: @escaping @Sendable (SystemError.Operation, String) -> Int32?) throws -> SyncReport {
        try replicas.sync(failing: failure)
    }

    /// An unreadable `.folioignore` is not "ignore nothing": the sync stops, as Syncthing's
    /// does, before anything its rules hold back is copied.
    @Test func anUnreadableFolioIgnoreStopsTheSync() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("private\n", "diary.md", in: .a)
        try replicas.write("diary.md\n", ".folioignore", in: .a)
        #expect {
            _ = try sync(replicas) { operation, path in operation == .read && path.hasSuffix("laptop/.folioignore") ? EIO : nil }
        } throws: { error in
            guard let error = error as? SyncError else { return false }
            return error.kind == .fileIO && error.description.contains("laptop/.folioignore") && error.description.contains("Input/output error")
                && error.description.hasSuffix("nothing was changed")
        }
        #expect(replicas.read("diary.md", in: .b) == nil)
        // Readable again, its rules hold.
        let report = try replicas.sync()
        #expect(report.copied.isEmpty)
        #expect(replicas.read("diary.md", in: .b) == nil)
    }

    /// The record of the replicas' identities cannot be read: the check against a replaced
    /// replica is not skipped in silence.
    @Test func anUnreadableRootsRecordStopsTheSync() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\n", "one.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("two\n", "two.md", in: .a)
        #expect {
            _ = try sync(replicas) { operation, path in operation == .read && path.hasSuffix("state/roots") ? EIO : nil }
        } throws: { error in
            (error as? SyncError)?.kind == .stateIO && "\(error)".contains("state/roots") && "\(error)".hasSuffix("nothing was changed")
        }
        #expect(replicas.read("two.md", in: .b) == nil)
    }

    /// The identities cannot be written: the files are synced, and the state's problem said.
    @Test func rootsThatCannotBeRecordedAreReported() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\n", "one.md", in: .a)
        let report = try sync(replicas) { operation, path in operation == .open && path.contains("state/.roots.folio-") ? ENOSPC : nil }
        #expect(report.copied == ["one.md"])
        #expect(report.skipped[SyncReport.stateKey]?.hasPrefix("cannot record the replicas' identities") == true)
        #expect(report.skipped[SyncReport.stateKey]?.contains("No space left on device") == true)
    }

    /// A file the merge cannot read is skipped with the disk's reason, not reported as
    /// changed while the sync ran.
    @Test func aFileTheMergeCannotReadIsSkippedNotChanged() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("---\ntitle: soup\ntime: 15m\nservings: 2\n---\n", "soup.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("---\ntitle: soup\ntime: 20m\nservings: 2\n---\n", "soup.md", in: .a)
        try replicas.write("---\ntitle: soup\ntime: 15m\nservings: 4\n---\n", "soup.md", in: .b)
        // The scan reads A's file; the merge's read of it, after, fails.
        final class Reads: @unchecked Sendable {
            // Safe: `lock` guards `count`.
            let lock = NSLock()
            var count = 0
        }
        let reads = Reads()
        let report = try sync(replicas) { operation, path in
            guard operation == .open, path.hasSuffix("laptop/soup.md") else { return nil }
            return reads.lock.withLock { () -> Int32? in
                reads.count += 1
                return reads.count > 1 ? EIO : nil
            }
        }
        #expect(report.skipped["A:soup.md"]?.hasPrefix("cannot read it: Input/output error") == true)
        #expect(!report.changedDuringSync.contains("soup.md"))
        #expect(replicas.read("soup.md", in: .b)?.contains("servings: 4") == true)
        let next = try replicas.sync()
        #expect(next.merged == ["soup.md"])
    }

    /// A replacement the disk refuses to rename into place is skipped with the disk's
    /// reason, not reported as changed while the sync ran.
    @Test func aReplacementTheDiskRefusesIsSkippedNotChanged() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\n", "one.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("one, edited\n", "one.md", in: .a)
        let phone = replicas.b
        let report = try sync(replicas) { operation, path in operation == .rename && path.hasPrefix(phone + "/") && path.contains("one.md") ? EIO : nil }
        #expect(report.skipped["B:one.md"]?.hasPrefix("cannot write it: Input/output error") == true)
        #expect(!report.changedDuringSync.contains("one.md"))
        #expect(replicas.read("one.md", in: .b) == "one\n")
        _ = try replicas.sync()
        #expect(replicas.read("one.md", in: .b) == "one, edited\n")
    }

}
