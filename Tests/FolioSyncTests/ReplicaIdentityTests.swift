@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
import Foundation
import Testing

/// The wrong folder in a replica's place: a link pointed at another folder, or a replica
/// left with a few files, is refused rather than emptying the other side.
@Suite struct ReplicaIdentityTests {
    static func tenFiles(_ replicas: Replicas) throws {
        for index in 0..<10 { try replicas.write("---\ntitle: \(index)\n---\n", "notes/n\(index).md", in: .a) }
    }

    @Test func aSyncThatWouldDeleteMostOfASideIsRefused() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try Self.tenFiles(replicas)
        _ = try replicas.sync()
        for index in 1..<10 { try FileManager.default.removeItem(atPath: replicas.path(.a, "notes/n\(index).md")) }
        #expect(throws: SyncError.self) { try replicas.sync() }
        #expect(Replicas.files(under: replicas.b).count == 10)
        // Said on purpose, it goes ahead (into the trash).
        let report = try replicas.sync { $0.allowMassDelete = true }
        #expect(report.deleted.count == 9 && Replicas.files(under: replicas.b).count == 1)
    }

    @Test func aReplicaLinkPointedAtAnotherFolderIsRefused() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try Self.tenFiles(replicas)
        let link = replicas.root.appendingPathComponent("stick").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: replicas.b)
        var options = SyncOptions()
        options.stateDirectory = replicas.state
        _ = try SyncEngine(replicas.a, link, options: options).run()
        // Another folder, with one file of its own, where the link points now.
        let other = replicas.root.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try Data("---\ntitle: Other\n---\n".utf8).write(to: URL(fileURLWithPath: other + "/other.md"))
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: other)
        #expect {
            _ = try SyncEngine(replicas.a, link, options: options).run()
        } throws: { error in
            "\(error)".contains("is not the folder synced last time") && "\(error)".contains("--allow-mass-delete")
        }
        #expect(Replicas.files(under: replicas.a).count == 10)
    }
}
