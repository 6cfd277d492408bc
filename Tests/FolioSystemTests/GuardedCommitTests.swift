import Foundation
import Testing
@testable import FolioSystem
import FolioTestSupport

/// A guarded commit against a save that lands between Folio's check and its rename
/// (an editor writing a temporary file and renaming it over, or creating the file):
/// the save always stays, found at its path, and the commit reports that it gave up.
@Suite struct GuardedCommitTests {
    /// A folder with `soup.md` (unless `existing` is nil), removed after the test.
    func folder(existing: String? = "old\n") throws -> (root: String, path: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-commit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // Closed on exec (FixtureFile): a program another test starts at that moment must not
        // hold the file open for writing, or the guarded write rightly refuses it (seen in a
        // full run: the commit below returned false).
        if let existing { try FixtureFile.write(existing, to: root + "/soup.md") }
        return (root, root + "/soup.md")
    }

    /// Saves `text` at `path` the way editors do (a temporary file renamed over it),
    /// once, the first time Folio is about to rename onto `path`.
    static func saveInTheWindow(_ text: String, at path: String) -> FaultInjection {
        RaceWindow.acting(at: .rename, on: path) { RaceWindow.save(text, at: path) }.hook
    }

    @Test func aReplacementGivesUpWhenAnEditIsSavedBetweenTheCheckAndTheRename() throws {
        let (root, path) = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let expected = try FileStamp.of(path)
        let target = try RootedPath.absolute(path)
        let temporary = try AtomicFile.prepare(Array("folio's\n".utf8), beside: target, mode: 0o644, flushing: true)
        let committed = try FaultInjection.$current.withValue(Self.saveInTheWindow("the user's edit\n", at: path)) {
            try AtomicFile.commit(temporary, to: target) { $0 == expected }
        }
        #expect(!committed)
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "the user's edit\n")
        // Nothing left behind: no temporary file, no second copy.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["soup.md"])
    }

    @Test func aNewFileGivesUpWhenTheNameIsTakenBetweenTheCheckAndTheRename() throws {
        let (root, path) = try folder(existing: nil)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = try RootedPath.absolute(path)
        let temporary = try AtomicFile.prepare(Array("folio's\n".utf8), beside: target, mode: 0o644, flushing: true)
        let committed = try FaultInjection.$current.withValue(Self.saveInTheWindow("created meanwhile\n", at: path)) {
            try AtomicFile.commit(temporary, to: target) { $0 == nil }
        }
        #expect(!committed)
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "created meanwhile\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["soup.md"])
    }

    @Test func aNewFileMadeInOneGoGivesUpWhenTheNameIsTakenBeforeItsRename() throws {
        let (root, path) = try folder(existing: nil)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stamp = try FaultInjection.$current.withValue(Self.saveInTheWindow("created meanwhile\n", at: path)) {
            try AtomicFile.createNew(Array("folio's\n".utf8), at: try RootedPath.absolute(path))
        }
        #expect(stamp == nil)
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "created meanwhile\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["soup.md"])
    }

    @Test func aNewFileMadeInOneGoIsStampedAsALookAtItFindsIt() throws {
        let (root, _) = try folder(existing: nil)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Its folders are made; the stamp is the file's after the rename (which sets its
        // change time), so the next scan takes it as unchanged and does not read it again.
        let path = root + "/new/deeper/soup.md"
        let stamp = try AtomicFile.createNew(Array("folio's\n".utf8), at: try RootedFolder(root)["new/deeper/soup.md"], creating: 0o600)
        #expect(stamp == (try FileStamp.of(path)))
        // The mode asked for (any usual umask, 022 or 077, leaves 0600 as it is).
        #expect(stamp?.permissions == 0o600)
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "folio's\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/new/deeper") == ["soup.md"])
    }

    #if os(Linux)
    @Test func aNewFileIsNeverSeenUnderATemporaryNameWhereTheSystemCanMakeItUnnamed() throws {
        let (root, path) = try folder(existing: nil)
        defer { try? FileManager.default.removeItem(atPath: root) }
        final class Seen: @unchecked Sendable {
            // Safe: a lock guards `paths`.
            let lock = NSLock()
            var paths: [String] = []
        }
        let seen = Seen()
        let plan = FaultInjection(beforeCall: { _, target in seen.lock.withLock { seen.paths.append(target) } })
        let stamp = try FaultInjection.$current.withValue(plan) { try AtomicFile.createNew(Array("folio's\n".utf8), at: try RootedPath.absolute(path)) }
        #expect(stamp == (try FileStamp.of(path)))
        // Every call was on the folder or the file itself: written unnamed, then named in one step.
        #expect(seen.paths.contains(path) && seen.paths.allSatisfy { $0 == path || $0 == root }, "\(seen.paths)")
    }
    #endif

    @Test func withoutASaveInTheWindowTheCommitReplacesAndLeavesNothingBehind() throws {
        let (root, path) = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let expected = try FileStamp.of(path)
        #expect(try AtomicFile.write(Array("new\n".utf8), to: path, mode: 0o644) { $0 == expected })
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["soup.md"])
        #expect(try !AtomicFile.write(Array("newer\n".utf8), to: path, mode: 0o644) { $0 == expected })
    }

    /// A program that opened the file before the commit (to append, say) and writes
    /// after it: were the version it holds set aside and removed, its line would be
    /// gone. The commit gives up while anyone has the file open for writing (where the
    /// system can tell: Linux's leases).
    #if os(Linux)
    /// `body` run while a program has `path` open for appending (opened before it),
    /// which writes `appended` once it is done and then closes it.
    func whileAWriterHasItOpen<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let writer = open(path, O_WRONLY | O_APPEND)
        #expect(writer >= 0)
        defer { close(writer) }
        let result = try body()
        _ = Array("appended\n".utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        return result
    }

    @Test func aReplacementGivesUpWhileAWriterHasTheFileOpen() throws {
        let (root, path) = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let expected = try FileStamp.of(path)
        let replaced = try whileAWriterHasItOpen(path) { try AtomicFile.write(Array("folio's\n".utf8), to: path, mode: 0o644) { $0 == expected } }
        #expect(!replaced)
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "old\nappended\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["soup.md"])
        // Once it is closed, the same commit goes through.
        let now = try FileStamp.of(path)
        #expect(try AtomicFile.write(Array("folio's\n".utf8), to: path, mode: 0o644) { $0 == now })
    }

    @Test func aGuardedRemovalGivesUpWhileAWriterHasTheFileOpen() throws {
        let (root, path) = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let expected = try FileStamp.of(path)
        let removed = try whileAWriterHasItOpen(path) { try AtomicFile.remove(try RootedPath.absolute(path), expecting: expected) }
        #expect(!removed)
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "old\nappended\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["soup.md"])
    }
    #endif

    /// A guarded move: its stamp comes from the file held open across the rename, and
    /// only while that is the expected file, unchanged, and the file at the new name.
    @Test func aMoveStampsTheFileItMovedAndNothingElse() throws {
        let (root, path) = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/stew/stew.md"
        let (source, destination) = (try RootedPath.absolute(path), try RootedFolder(root)["stew/stew.md"])

        // No save: moved (its folder made), stamped as a look at it finds it.
        #expect(try AtomicFile.move(source, to: destination, expecting: try FileStamp.of(path)) == .moved(stamp: try FileStamp.of(target)))

        // A save onto the new name right after the rename, or an append to the file: no stamp.
        let saves: [@Sendable (String) -> Void] = [{ RaceWindow.save("the user's edit\n", at: $0) }, { RaceWindow.append("appended\n", to: $0) }]
        for act in saves {
            try FileManager.default.moveItem(atPath: target, toPath: path)
            let plan = RaceWindow.acting(at: .stat, on: target, after: .rename) { act(target) }.hook
            let moved = try FaultInjection.$current.withValue(plan) { try AtomicFile.move(source, to: destination, expecting: try FileStamp.of(path)) }
            #expect(moved == .moved(stamp: nil))
        }

        // A save onto the old name between the check and the rename: the saved file is
        // moved (it is what the user has under that name now), without a stamp.
        try FileManager.default.moveItem(atPath: target, toPath: path)
        let plan = RaceWindow.acting(at: .rename, on: target) { RaceWindow.save("saved before the rename\n", at: path) }.hook
        let moved = try FaultInjection.$current.withValue(plan) { try AtomicFile.move(source, to: destination, expecting: try FileStamp.of(path)) }
        #expect(moved == .moved(stamp: nil))
        #expect(String(decoding: try FileReading.contents(of: target), as: UTF8.self) == "saved before the rename\n")

        // Not the expected file, or the new name taken: nothing moves.
        try FileManager.default.moveItem(atPath: target, toPath: path)
        let before = try FileStamp.of(path)
        RaceWindow.save("edited since\n", at: path)
        #expect(try AtomicFile.move(source, to: destination, expecting: before) == .notMoved)
        RaceWindow.save("taken\n", at: target)
        #expect(try AtomicFile.move(source, to: destination, expecting: try FileStamp.of(path)) == .notMoved)
        #expect(String(decoding: try FileReading.contents(of: target), as: UTF8.self) == "taken\n")
        #expect(String(decoding: try FileReading.contents(of: path), as: UTF8.self) == "edited since\n")
    }
}
