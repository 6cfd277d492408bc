import Foundation
import Testing

/// Programs some tests drive (vim, git, …): found on the PATH, or skipped with a
/// notice — a failure when `FOLIO_CORPORA=required`, as in CI, which installs them.
package enum ExternalTool {
    /// The full path of the first of `names` on the PATH, or nil after a notice (or a
    /// recorded failure in CI). `install` says how to get it.
    /// `in`: more folders to look in than the PATH's (`/usr/sbin` for sshd, which a
    /// user's PATH often leaves out).
    package static func find(_ names: [String], install: String, in more: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + more
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        if ProcessInfo.processInfo.environment["FOLIO_CORPORA"] == "required" {
            Issue.record("\(names[0]) is not installed (\(install)) and FOLIO_CORPORA=required", sourceLocation: sourceLocation)
        } else {
            print("notice: skipping a test that needs \(names[0]): not installed (\(install))")
        }
        return nil
    }

    /// Runs `executable` with `arguments`; its exit status and standard error.
    @discardableResult
    package static func run(_ executable: String, _ arguments: [String], in folder: String? = nil) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `git merge-file -p` in `folder` on `files` (ours, base, theirs, written there
    /// under those names) with `options`, away from any user or system configuration:
    /// its output and exit status.
    package static func gitMergeFile(_ git: String, _ files: [[UInt8]], options: [String] = [], in folder: URL) throws -> (bytes: [UInt8], status: Int32) {
        for (name, bytes) in zip(["ours", "base", "theirs"], files) {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["merge-file", "-p"] + options + ["ours", "base", "theirs"]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return (bytes, process.terminationStatus)
    }

    /// ``run(_:_:in:)`` from an async test: the program is waited for on a thread of its
    /// own, not on one of the cooperative pool's (two here), which the other suites need.
    @discardableResult
    package static func run(_ executable: String, _ arguments: [String], in folder: String? = nil) async throws -> (status: Int32, errors: String) {
        try await offThePool { try run(executable, arguments, in: folder) as (status: Int32, errors: String) }
    }

    /// ``gitMergeFile(_:_:options:in:)`` from an async test, waited for off the pool.
    package static func gitMergeFile(_ git: String, _ files: [[UInt8]], options: [String] = [], in folder: URL) async throws -> (bytes: [UInt8], status: Int32) {
        try await offThePool { try gitMergeFile(git, files, options: options, in: folder) as (bytes: [UInt8], status: Int32) }
    }

    /// Runs `executable` with `arguments` and exactly `environment`, waiting on this
    /// thread: its exit status and its standard output and error together, as a
    /// terminal shows them (for a failure's message).
    package static func runShowingOutput(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// ``runShowingOutput(_:_:environment:)`` from an async test, with `environment` added
    /// to this process's, waited for off the pool.
    package static func runShowing(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await offThePool { try runShowingOutput(executable, arguments, environment: merged) as (status: Int32, output: String) }
    }
}
