import FolioGit
import FolioTestSupport
import Foundation
import Testing

/// A bare repository as the remote and clones of it as devices, in a fresh temporary
/// folder: git run away from the user's configuration (its own HOME), each clone with
/// its own identity.
struct GitDevices {
    let git: String
    let root: URL
    /// The remote's URL as the clones reach it.
    let remote: String
    /// More for git's environment (`GIT_SSH_COMMAND` for a remote over SSH).
    var extraEnvironment: [String: String] = [:]
    var remotePath: String { root.appendingPathComponent("remote.git").path }

    /// A remote holding one commit of `files` (path → text), or nil (with a notice) when
    /// git is not installed. `url` makes the clones' URL from the bare repository's path
    /// (an ssh:// one, say); by default they reach it by its path.
    init?(files: [String: String], url: ((String) -> String)? = nil) async throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return nil }
        self.git = git
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        remote = url?(root.appendingPathComponent("remote.git").path) ?? root.appendingPathComponent("remote.git").path
        try await run(["init", "-q", "--bare", "-b", "main", remotePath])
        let seed = root.appendingPathComponent("seed").path
        try await run(["init", "-q", "-b", "main", seed])
        for (path, text) in files { try Self.write(text, to: seed + "/" + path) }
        try await run(["-C", seed, "add", "-A"])
        try await run(["-C", seed, "-c", "user.name=Seed", "-c", "user.email=seed@example.org", "commit", "-qm", "first"])
        try await run(["-C", seed, "push", "-q", remotePath, "main"])
    }

    /// A new clone of the remote, named `name` (its identity and conflict copies carry it).
    func clone(_ name: String, rebase: Bool = false) async throws -> Device {
        let folder = root.appendingPathComponent(name).path
        try await run(["clone", "-q", remote, folder])
        try await run(["-C", folder, "config", "user.name", name])
        try await run(["-C", folder, "config", "user.email", "\(name.lowercased())@example.org"])
        if rebase { try await run(["-C", folder, "config", "pull.rebase", "true"]) }
        return Device(name: name, folder: folder, devices: self)
    }

    /// git's output for `arguments`, waited for off the cooperative pool (two threads
    /// here, which every other suite needs meanwhile); a failure is recorded.
    @discardableResult
    func run(_ arguments: [String], expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let (git, environment) = (git, environment)
        let (exit, text) = try await offThePool { try ExternalTool.runShowingOutput(git, arguments, environment: environment) }
        #expect(exit == status, "git \(arguments.joined(separator: " ")): \(text)", sourceLocation: sourceLocation)
        return text
    }

    /// This process's environment with HOME in the scratch folder and no system
    /// configuration: what git and GitSync run under here (GitSync inherits it).
    var environment: [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["HOME"] = root.path
        variables["GIT_CONFIG_NOSYSTEM"] = "1"
        for (name, value) in extraEnvironment { variables[name] = value }
        return variables
    }

    /// The remote branch's head.
    func remoteHead() async throws -> String {
        try await run(["-C", remotePath, "rev-parse", "main"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs git fsck on the remote (a failure is recorded) and returns what it said.
    @discardableResult
    func checkRemote(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await run(["-C", remotePath, "fsck", "--no-progress", "--strict"], sourceLocation: sourceLocation)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// One clone: a device's work tree.
struct Device {
    let name: String
    let folder: String
    let devices: GitDevices

    func write(_ text: String, _ path: String) throws { try GitDevices.write(text, to: folder + "/" + path) }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: folder + "/" + path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file of the work tree (`.git` aside), path → text.
    func files() -> [String: String] {
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: folder)
        while let path = walker?.nextObject() as? String {
            if path == ".git" { walker?.skipDescendants(); continue }
            if let text = read(path) { files[path] = text }
        }
        return files
    }

    /// One git-sync pass, its state in the scratch folder, waited for off the cooperative
    /// pool (two threads here: a test blocking one for its git runs held up every suite).
    func sync() async throws -> GitSyncReport {
        let (folder, options) = (folder, options)
        return try await offThePool { try GitSync(folder, options: options).run() }
    }

    /// The options of this device's passes: its state in the scratch folder, git away
    /// from the user's configuration.
    var options: GitSyncOptions {
        var options = GitSyncOptions()
        options.stateDirectory = devices.root.appendingPathComponent("state-" + name).path
        options.deviceName = name
        options.gitEnvironment = ["HOME": devices.root.path, "GIT_CONFIG_NOSYSTEM": "1"].merging(devices.extraEnvironment) { $1 }
        return options
    }

    /// git in this clone, waited for off the cooperative pool.
    @discardableResult
    func git(_ arguments: [String], expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await devices.run(["-C", folder] + arguments, expect: status, sourceLocation: sourceLocation)
    }
}
