import FolioGit
import FolioTestSupport
import Foundation
import Testing

/// `GitSync` with the remote on a real OpenSSH server on 127.0.0.1, as devices reach a
/// repository over SSH: edits of different fields merged, a real clash kept as a copy,
/// and the server stopped (offline: committed here, safe) then back (pushed).
@Suite(.serialized) struct GitSyncSSHTests {
    static let recipe = ConflictCopyFixture.recipe
    static func recipe(_ changes: [(String, String)]) -> String { ConflictCopyFixture.recipe(changes) }

    @Test func devicesOverSSHMergeClashAndRideOutTheServerGoingAway() async throws {
        guard let server = try SSHServer() else { return }
        defer { server.remove() }
        #expect(try await offThePool { try server.start() }, "sshd did not start: \((try? String(contentsOfFile: server.path("sshd.log"), encoding: .utf8)) ?? "")")
        guard var devices = try await GitDevices(files: ["r.md": Self.recipe], url: server.url) else { return }
        defer { devices.remove() }
        devices.extraEnvironment = server.environment
        let laptop = try await devices.clone("LAPTOP"), phone = try await devices.clone("PHONE")
        // Different fields: merged on both.
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        try phone.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        #expect(try await laptop.sync().stopped == nil)
        let merged = try await phone.sync()
        #expect(merged.stopped == nil && merged.clashes.isEmpty, "\(merged)")
        _ = try await laptop.sync()
        let both = Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")])
        #expect(laptop.read("r.md") == both && phone.read("r.md") == both)
        // A real clash: the file and a copy, on both.
        try laptop.write(both.replacingOccurrences(of: "time: 20m", with: "time: 30m"), "r.md")
        try phone.write(both.replacingOccurrences(of: "time: 20m", with: "time: 35m"), "r.md")
        _ = try await laptop.sync()
        let clash = try await phone.sync()
        #expect(clash.clashes.count == 1, "\(clash)")
        _ = try await laptop.sync()
        #expect(laptop.files() == phone.files() && laptop.files().count == 2)
        // The server goes away: the edit is committed here and safe; back, it is pushed.
        server.stop()
        try laptop.write("---\ntitle: Bread\n---\n", "bread.md")
        let offline = try await laptop.sync()
        #expect(offline.stopped?.kind == .offline, "\(offline)")
        #expect(offline.events.contains { if case .committed(_, let paths) = $0 { paths == ["bread.md"] } else { false } })
        #expect(try await offThePool { try server.start() })
        let back = try await laptop.sync()
        #expect(back.events.contains(.pushed(upstream: "origin/main", commits: 1)), "\(back)")
        _ = try await phone.sync()
        #expect(phone.read("bread.md") == "---\ntitle: Bread\n---\n")
        try await devices.checkRemote()
    }
}
