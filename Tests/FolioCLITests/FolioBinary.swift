import FolioTestSupport
import Foundation

/// Runs the built `folio` binary, as a user would.
struct FolioBinary {
    struct Run: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `folio` built beside this test bundle.
    static var url: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("folio")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/folio")
    }

    /// Runs it with `arguments`, in `directory` when given, with `environment` added to this process's.
    /// Not from an async test: there, the async ``run(_:in:environment:)`` waits off the
    /// cooperative pool (two threads here), which every other suite needs meanwhile.
    @available(*, noasync, message: "await the async run(_:in:environment:): it waits off the cooperative pool")
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// ``run(_:in:environment:)``, waited for off Swift's cooperative pool
    /// (``offThePool(_:)``): an async test calls this one, and does not hold one of the
    /// pool's two threads while the binary runs.
    /// Runs it with `arguments` and `environment` added to this process's, waited for off
    /// the pool for at most `timeout` seconds: past that it is killed (SIGKILL) and nil
    /// returned, so that a program that hangs fails its test instead of the whole run.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval) async throws -> Run? {
        try await offThePool { () throws -> Run? in
            let process = Process()
            process.executableURL = url
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Files, not pipes: nothing to drain while the deadline is watched.
            let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
            for file in [out, err] { try Data().write(to: file) }
            let (outHandle, errHandle) = (try FileHandle(forWritingTo: out), try FileHandle(forWritingTo: err))
            defer { try? outHandle.close(); try? errHandle.close() }
            process.standardOutput = outHandle
            process.standardError = errHandle
            // Told when it ends: the wait returns then, or at the deadline, with no polling.
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
            if ended.wait(timeout: .now() + timeout) == .timedOut && process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "", stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        }
    }

    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws -> Run {
        try await offThePool { try run(arguments, in: directory, environment: environment) as Run }
    }

    /// A fresh empty folder for one test, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-test-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
