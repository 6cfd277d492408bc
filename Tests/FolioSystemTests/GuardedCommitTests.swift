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
        if let existing { try Data(existing.utf8).write(to: URL(fileURLWithPath: root + "/soup.md")) }
        return (root, root + "/soup.md")
    }

    /// Saves `text` at `path` the way editors do (a temporary file renamed over it),
    /// once, the first time Folio is about to rename onto `path`.
    static func saveInTheWindow(_ text: String, at path: String) -> FaultInjection {
        final class Once: @unchecked Sendable {
            // Safe: set and read on the one thread that runs the commit.
            var done = false
        }
        let once = Once()
        return FaultInjection(beforeCall: { operation, target in
            guard operation == .rename, target == path, !once.done else { return }
            once.done = true
            let side = path + ".editor-save"
            _ = FileManager.default.createFile(atPath: side, contents: Data(text.utf8))
            _ = rename(side, path)
        })
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
}
