import Foundation
import FolioTestSupport
import Testing

extension HarnessTests {
    /// `folio watch` beside real Syncthing instances (on 127.0.0.1 only): the scenarios in
    /// Tests/Syncthing/scenarios.py cut the devices off from each other, edit one recipe on
    /// several of them, reconnect them and check that Folio folds the conflict copies Syncthing
    /// leaves (or keeps a real clash), identically on every device, losing nothing — with
    /// Folio on one device and on every device.
    @Suite struct SyncthingTests {
        /// The whole run takes about 2.5 minutes; past this it is stopped and fails.
        static let timeout: TimeInterval = 600

        @Test func conflictCopiesFoldAcrossRealSyncthingDevices() async throws {
            try await Self.expectEveryCheckPasses("Tests/Syncthing/scenarios.py", atLeast: 12)
        }

        /// Tests/Syncthing/session.py: three devices (and a fourth joining late), `folio watch`
        /// on all, six rounds of seeded offline edits (different keys, ingredient lines, a
        /// tick against a priority and a due date, an untick, a key re-edited, a device
        /// offline for two rounds and a second one away at the same time, their records
        /// edited meanwhile by the others, a device's folder paused while it edits, real
        /// clashes); after every round, on every device: the folders byte-identical, every
        /// mergeable edit present exactly once, only the real clashes left as copies (one
        /// each), settled within 40 s, no version restored unless Syncthing dropped one.
        /// About two and a half minutes; by hand, `--rounds 8` and other seeds run the same
        /// scenarios longer.
        @Test func threeDevicesConvergeOverASessionOfOfflineEdits() async throws {
            try await Self.expectEveryCheckPasses("Tests/Syncthing/session.py", ["--seed", "1"], atLeast: 7)
        }

        /// Runs `script` (which finds syncthing on the PATH) and expects it to end with
        /// `N passed, 0 failed`, N at least `atLeast`, within ``timeout``.
        static func expectEveryCheckPasses(_ script: String, _ arguments: [String] = [], atLeast: Int) async throws {
            guard ExternalTool.find(["syncthing"], install: "apt-get install syncthing") != nil,
                  let run = try await PythonHarness.run(script, arguments, timeout: timeout) else { return }
            #expect(!run.timedOut, "\(script) did not finish within \(Int(timeout)) s")
            #expect(run.status == 0, "\(script) exited \(run.status)")
            let counts = run.lastLine.wholeMatch(of: /(\d+) passed, (\d+) failed/)
            #expect(counts != nil, "last line: \(run.lastLine)")
            if let counts {
                #expect(Int(counts.1)! >= atLeast && Int(counts.2)! == 0, "\(run.lastLine)")
            }
        }
    }
}
