import Foundation
import FolioTestSupport
import Testing
@testable import FolioStore
@testable import FolioSystem

/// Reading a folder whole while it changes: what changed under the reader is one file's
/// business, never the whole folder's.
@Suite struct DiskSnapshotTests {
    /// A folder of the root made a file after the walk listed it, before its files are
    /// read: those files are gone, and the rest of the root is still read (it once made
    /// the whole root read as missing, and the store dropped every record).
    @Test func aFolderMadeAFileWhileTheRootIsReadLeavesTheRestRead() throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.path
        try Data("---\ntitle: Top\n---\n".utf8).write(to: folder.appendingPathComponent("top.md"))
        let opens = Counter()
        // The walk opens the folder first; the file's read opens it again: it is swapped
        // just before that second open, as a user might.
        let plan = FaultInjection(beforeCall: { operation, path in
            guard operation == .openDirectory, path == root + "/todos", opens.next() == 2 else { return }
            try? FileManager.default.removeItem(atPath: root + "/todos")
            _ = FileManager.default.createFile(atPath: root + "/todos", contents: Data("now a file\n".utf8))
        })
        let snapshot = try FaultInjection.$current.withValue(plan) { DiskSnapshot.read([""], under: try RootedFolder(root)) }
        guard case .folder(let files)? = snapshot.entries[""] else {
            Issue.record("the root was not read as a folder: \(String(describing: snapshot.entries[""]))")
            return
        }
        #expect(opens.value >= 2)
        #expect(files["top.md"] != nil)
        #expect(files["todos/buy-milk.md"] == nil)
        #expect(snapshot.problems.isEmpty)
    }

    /// One file that cannot be read is that file's entry, unreadable (the store keeps
    /// what it knew there); the others are read.
    @Test func oneUnreadableFileLeavesTheRestRead() throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.path
        try Data("---\ntitle: Top\n---\n".utf8).write(to: folder.appendingPathComponent("top.md"))
        let plan = FaultInjection(failure: { operation, path in operation == .read && path == root + "/top.md" ? EIO : nil })
        let snapshot = try FaultInjection.$current.withValue(plan) { DiskSnapshot.read([""], under: try RootedFolder(root)) }
        guard case .folder(let files)? = snapshot.entries[""], case .unreadable(let error)? = snapshot.entries["top.md"] else {
            Issue.record("expected the root read and top.md unreadable: \(snapshot.entries.keys.sorted())")
            return
        }
        #expect(error.code == EIO)
        #expect(files["top.md"] == nil && !files.isEmpty)
        #expect(snapshot.problems.map(\.code) == [EIO])
    }
}
