@testable import FolioShared
@testable import FolioSync
import FolioSystem
@testable import FolioVersions
import Foundation
import Testing

/// The first sync after an upgrade from an archive without folder entries.
@Suite struct ArchiveUpgradeTests {
    @Test func aFolderDeletedBeforeTheUpgradeIsNotBroughtBack() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("---\ntitle: Keep\n---\n", "keep.md", in: .a)
        try replicas.write("---\ntitle: Old\n---\n", "old/note.md", in: .a)
        _ = try replicas.sync()
        // The archive as an older Folio wrote it: files only.
        var archive = try ArchiveStorage(state: try RootedFolder.creating(replicas.state)).load().archive
        for path in archive.entries.keys where path.isFolder { archive.entries[path] = nil }
        try Data(archive.serialized(generation: 0)).write(to: URL(fileURLWithPath: replicas.state + "/archive"))
        try? FileManager.default.removeItem(atPath: replicas.state + "/archive.log")
        // A deletes the folder (with its file) and upgrades.
        try FileManager.default.removeItem(atPath: replicas.path(.a, "old"))
        _ = try replicas.sync()
        #expect(!FileManager.default.fileExists(atPath: replicas.path(.a, "old")))
        #expect(!FileManager.default.fileExists(atPath: replicas.path(.b, "old")))
        #expect(try replicas.sync().copied.isEmpty)
    }
}
