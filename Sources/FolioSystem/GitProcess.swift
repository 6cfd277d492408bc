import Foundation

/// git's output for a command, or nil when it fails or git is not there. Where a
/// program cannot start another (iOS and the other Apple device platforms have no
/// `Process`), always nil: a folder's git history is then simply not a source of bases.
package enum GitProcess {
    #if os(macOS) || os(Linux)
    package static func output(_ arguments: [String]) -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Array(data) : nil
    }

    /// Runs git with `arguments` in `folder` (its environment with `environment` added,
    /// `input` on its standard input) and waits for it; nil when git cannot be started.
    /// Its messages are in English (`LC_ALL=C`), so that callers can tell an unreachable
    /// remote from a refused push, and it never asks for a password on a terminal.
    package static func run(_ arguments: [String], in folder: String?, environment: [String: String] = [:], input: [UInt8]? = nil) -> GitOutcome? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        var variables = ProcessInfo.processInfo.environment
        variables["LC_ALL"] = "C"
        variables["GIT_TERMINAL_PROMPT"] = "0"
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : standardInput
        do { try process.run() } catch { return nil }
        // Both pipes read at once: git blocks on a full one while the other is waited on.
        let errorText = ErrorText()
        let reading = DispatchGroup()
        reading.enter()
        DispatchQueue.global().async {
            errorText.set(errors.fileHandleForReading.readDataToEndOfFile())
            reading.leave()
        }
        if let input {
            standardInput.fileHandleForWriting.write(Data(input))
            try? standardInput.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        reading.wait()
        return GitOutcome(status: process.terminationStatus, output: Array(data), errors: errorText.text)
    }
    #else
    package static func output(_ arguments: [String]) -> [UInt8]? { nil }

    package static func run(_ arguments: [String], in folder: String?, environment: [String: String] = [:], input: [UInt8]? = nil) -> GitOutcome? { nil }
    #endif
}

/// The standard error of a git run, read on another thread.
///
/// `@unchecked Sendable` is safe: `data` is read and written only with `lock` held.
private final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ read: Data) { lock.withLock { data = read } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
