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
    #else
    package static func output(_ arguments: [String]) -> [UInt8]? { nil }
    #endif
}
