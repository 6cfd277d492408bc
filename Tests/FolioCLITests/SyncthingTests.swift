import Foundation
import FolioTestSupport
import Testing

/// `folio watch` beside real Syncthing instances (on 127.0.0.1 only): the scenarios in
/// Tests/Syncthing/scenarios.py cut the devices off from each other, edit one recipe on
/// several of them, reconnect them and check that Folio folds the conflict copies Syncthing
/// leaves (or keeps a real clash), identically on every device, losing nothing — with
/// Folio on one device and on every device.
@Suite struct SyncthingTests {
    /// The whole run takes about 2.5 minutes; past this it is stopped and fails.
    static let timeout: TimeInterval = 600

    @Test func conflictCopiesFoldAcrossRealSyncthingDevices() throws {
        guard let syncthing = ExternalTool.find(["syncthing"], install: "apt-get install syncthing"),
              let python = ExternalTool.find(["python3"], install: "apt-get install python3") else { return }
        _ = syncthing   // scenarios.py finds it on the PATH too
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("scenarios.out")
        try Data().write(to: outputURL)
        let output = try FileHandle(forWritingTo: outputURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["Tests/Syncthing/scenarios.py", "--folio", FolioBinary.url.path]
        process.currentDirectoryURL = FolioBinary.packageRoot
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(Self.timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        let timedOut = process.isRunning
        if timedOut {
            // SIGTERM lets the script stop every syncthing and folio it started.
            process.terminate()
            let grace = Date().addingTimeInterval(30)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.2) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        print(text)

        #expect(!timedOut, "scenarios.py did not finish within \(Int(Self.timeout)) s")
        #expect(process.terminationStatus == 0, "scenarios.py exited \(process.terminationStatus)")
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        let counts = last.wholeMatch(of: /(\d+) passed, (\d+) failed/)
        #expect(counts != nil, "last line: \(last)")
        if let counts {
            #expect(Int(counts.1)! >= 12 && Int(counts.2)! == 0, "\(last)")
        }
    }
}
