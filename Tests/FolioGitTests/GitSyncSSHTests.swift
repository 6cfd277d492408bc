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
        // A key the server does not know: refused, said with what to do; the edit committed here.
        let stranger = server.path("stranger")
        try await ExternalTool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", stranger])
        let config = try String(contentsOfFile: server.path("ssh_config"), encoding: .utf8)
        try config.replacingOccurrences(of: "IdentityFile \(server.path("user"))\n", with: "IdentityFile \(stranger)\n")
            .write(toFile: server.path("ssh_config"), atomically: true, encoding: .utf8)
        try phone.write("---\ntitle: Rice\n---\n", "rice.md")
        let refused = try await phone.sync()
        #expect(refused.stopped?.kind == .refused, "\(refused)")
        #expect(refused.stopped?.message.contains("check its key or credentials") == true, "\(refused)")
        #expect(try await phone.git(["status", "--porcelain"]).isEmpty, "the edit is committed here")
        try await devices.checkRemote()
    }

    /// A remote that declines the push (a protected branch: a pre-receive hook here) is
    /// said plainly with what to do, and the edit stays committed here.
    @Test func aPushTheRemoteDeclinesIsSaidWithWhatToDo() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP")
        let hook = devices.remotePath + "/hooks/pre-receive"
        try GitDevices.write("#!/bin/sh\necho 'main is protected' >&2\nexit 1\n", to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook)
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        let report = try await laptop.sync()
        #expect(report.stopped?.kind == .refused, "\(report)")
        #expect(report.stopped?.message.contains("the branch may be protected") == true, "\(report)")
        #expect(try await laptop.git(["status", "--porcelain"]).isEmpty)
    }
}
