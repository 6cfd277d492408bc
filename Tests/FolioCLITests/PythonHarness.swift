import Foundation
import FolioTestSupport
import Testing

/// The suites that drive long Python harnesses (real Syncthing devices, real kills):
/// one at a time, as each starts many processes and times its waits.
@Suite(.serialized) struct HarnessTests {}

/// A Python harness under Tests/ run against the built `folio`, its output collected,
/// stopped (SIGTERM, then SIGKILL) when it runs past its time.
struct PythonHarness {
    /// Its exit status.
    let status: Int32
    /// What it printed, stdout and stderr together.
    let output: String
    /// Whether it had to be stopped.
    let timedOut: Bool

    /// The last line printed.
    var lastLine: String { output.split(separator: "\n").last.map(String.init) ?? "" }

    /// Runs `script` (relative to the package root) with `--folio PATH` and `arguments`;
    /// nil (with a printed notice) when Python is not installed. Waited for off Swift's
    /// cooperative pool (``offThePool(_:)``): a harness runs for minutes.
    static func run(_ script: String, _ arguments: [String] = [], timeout: TimeInterval) async throws -> PythonHarness? {
        try await offThePool { try runBlocking(script, arguments, timeout: timeout) }
    }

    private static func runBlocking(_ script: String, _ arguments: [String], timeout: TimeInterval) throws -> PythonHarness? {
        guard let python = ExternalTool.find(["python3"], install: "apt-get install python3") else { return nil }
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("harness.out")
        try Data().write(to: outputURL)
        let output = try FileHandle(forWritingTo: outputURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--folio", FolioBinary.url.path] + arguments
        process.currentDirectoryURL = FolioBinary.packageRoot
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        let timedOut = process.isRunning
        if timedOut {
            // SIGTERM lets the script stop every process it started.
            process.terminate()
            let grace = Date().addingTimeInterval(30)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.2) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        print(text)
        return PythonHarness(status: process.terminationStatus, output: text, timedOut: timedOut)
    }
}
