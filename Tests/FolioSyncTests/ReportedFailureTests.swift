@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Failures once swallowed by a `try?` (issue 23): each now stops the sync or is
/// reported, never taken for "nothing there" or "changed meanwhile". Faults are
/// injected, as the tests run as root and permissions deny nothing.
@Suite struct ReportedFailureTests {
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

    /// Compaction of the merge bases with an index it cannot read stops, rather than
    /// write a generation holding none of them.
    @Test func basesAreNotCompactedAwayWhenTheIndexCannotBeRead() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let state = try RootedFolder.creating(replicas.state, mode: 0o700)
        let kept = Array("base\n".utf8), hash = SHA256.hash(kept)
        let bases = BaseStore(state: state, known: [])
        try bases.store(kept, hash: hash)
        try bases.flush()
        let failing = FaultInjection(failure: { operation, path in operation == .read && path.hasSuffix("state/bases.index") ? EIO : nil })
        FaultInjection.$current.withValue(failing) {
            #expect(throws: SystemError.self) { try BaseStore(state: state, known: []).compact(keeping: [hash]) }
        }
        #expect(BaseStore(state: state, known: []).load(hash) == kept)
    }

    /// A flush of the bases that fails inside a load (which cannot throw) is thrown by
    /// the next flush, for the sync's record of its state to report.
    @Test func aFlushThatFailsInsideALoadIsThrownByTheNextFlush() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let state = try RootedFolder.creating(replicas.state, mode: 0o700)
        let bases = BaseStore(state: state, known: [])
        let bytes = Array("base\n".utf8)
        try bases.store(bytes, hash: SHA256.hash(bytes))
        let failing = FaultInjection(failure: { operation, path in operation == .open && path.hasSuffix(".pack") ? ENOSPC : nil })
        #expect(FaultInjection.$current.withValue(failing) { bases.load(SHA256.hash(bytes)) } == nil)
        #expect(throws: SystemError.self) { try bases.flush() }
        #expect(throws: Never.self) { try bases.flush() }
    }

    /// A folder made again at its path whose history cannot be opened (this device's
    /// name cannot be read) is reported by the follower, not passed over.
    @Test func aFollowedFolderWhoseHistoryCannotBeOpenedIsReported() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-follow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes").path, state = root.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("one\n".utf8).write(to: URL(fileURLWithPath: folder + "/one.md"))
        var options = FoldOptions()
        options.stateDirectory = state
        options.useGit = false
        final class Reports: @unchecked Sendable {
            // Safe: `lock` guards `blocked`.
            let lock = NSLock()
            var blocked: [String] = []
        }
        let reports = Reports()
        let follower = FoldingFollower(folder: try SharedFolder(folder, options: options)) { report in
            if let blocked = report.blocked { reports.lock.withLock { reports.blocked.append(blocked) } }
        }
        follower.start()
        await follower.ready()
        defer { follower.stop() }
        // The folder is made again at its path; this device's name is no longer a file.
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: state + "/device")
        try FileManager.default.createDirectory(atPath: state + "/device", withIntermediateDirectories: true)
        _ = follower.foldNow()
        #expect(reports.lock.withLock { reports.blocked.contains { $0.contains("cannot save this device's name") } })
    }
}
