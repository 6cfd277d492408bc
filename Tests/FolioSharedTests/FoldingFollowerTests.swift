@testable import FolioShared
import Foundation
import Testing

/// The follower of a shared folder: what it reports when the folder changes under it.
@Suite struct FoldingFollowerTests {

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
