import FolioTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// OpenSSH's server on 127.0.0.1 with its own port, keys and configuration, in a scratch
/// folder, for git remotes reached as a user reaches them: `ssh` with its own client
/// configuration (`GIT_SSH_COMMAND`). Only loopback; stopped (and its folder removed) by
/// ``stop()``.
final class SSHServer: @unchecked Sendable {
    // @unchecked Sendable is safe: every stored property is a constant.
    let folder: URL
    let port: Int

    /// The host name the client configuration gives the server.
    static let host = "folio-test-remote"

    /// A server ready to start, or nil (with a notice, or a failure in CI) when sshd or
    /// ssh-keygen is not installed.
    init?() throws {
        guard ExternalTool.find(["sshd"], install: "apt-get install openssh-server", in: ["/usr/sbin", "/usr/bin"]) != nil,
              ExternalTool.find(["ssh-keygen"], install: "apt-get install openssh-client") != nil else { return nil }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-sshd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = Int.random(in: 20_000...60_000)
        for key in ["host", "user"] {
            try ExternalTool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path(key)])
        }
        try FileManager.default.copyItem(atPath: path("user.pub"), toPath: path("authorized_keys"))
        let user = ProcessInfo.processInfo.environment["USER"] ?? "root"
        try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(path("host"))
            AuthorizedKeysFile \(path("authorized_keys"))
            PidFile \(path("sshd.pid"))
            StrictModes no
            UsePAM no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            PermitRootLogin prohibit-password
            AllowUsers \(user)

            """.write(toFile: path("sshd_config"), atomically: true, encoding: .utf8)
        try """
            Host \(Self.host)
              HostName 127.0.0.1
              Port \(port)
              User \(user)
              IdentityFile \(path("user"))
              IdentitiesOnly yes
              StrictHostKeyChecking no
              UserKnownHostsFile /dev/null
              BatchMode yes
              ConnectTimeout 5
              LogLevel ERROR

            """.write(toFile: path("ssh_config"), atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// What git's environment needs to reach it: `GIT_SSH_COMMAND` with this client configuration.
    var environment: [String: String] { ["GIT_SSH_COMMAND": "ssh -F \(path("ssh_config"))"] }

    /// The URL of the repository at `path` on this server.
    func url(_ path: String) -> String { "\(Self.host):\(path)" }

    /// Starts the server and waits (up to 10 s) until a client gets in; false when it did not.
    /// sshd puts itself in the background (its pid in `sshd.pid`): a long-running child of
    /// this process kept Foundation from seeing later children exit.
    func start() throws -> Bool {
        // sshd wants its privilege-separation folder.
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let sshd = FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") ? "/usr/sbin/sshd" : "/usr/bin/sshd"
        let started = try ExternalTool.run(sshd, ["-f", path("sshd_config"), "-E", path("sshd.log")])
        guard started.status == 0 else { return false }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? ExternalTool.run("/usr/bin/ssh", ["-F", path("ssh_config"), Self.host, "true"]))?.status == 0 { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Stops the server (a client then finds the port closed), waiting (up to 5 s) until
    /// it is gone.
    func stop() {
        guard let text = try? String(contentsOfFile: path("sshd.pid"), encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while kill(pid, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        try? FileManager.default.removeItem(atPath: path("sshd.pid"))
    }

    /// Stops it and removes its folder.
    func remove() {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
