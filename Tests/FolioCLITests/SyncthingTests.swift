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

        @Test func conflictCopiesFoldAcrossRealSyncthingDevices() throws {
            // scenarios.py finds syncthing on the PATH.
            guard ExternalTool.find(["syncthing"], install: "apt-get install syncthing") != nil,
                  let run = try PythonHarness.run("Tests/Syncthing/scenarios.py", timeout: Self.timeout) else { return }
            #expect(!run.timedOut, "scenarios.py did not finish within \(Int(Self.timeout)) s")
            #expect(run.status == 0, "scenarios.py exited \(run.status)")
            let counts = run.lastLine.wholeMatch(of: /(\d+) passed, (\d+) failed/)
            #expect(counts != nil, "last line: \(run.lastLine)")
            if let counts {
                #expect(Int(counts.1)! >= 12 && Int(counts.2)! == 0, "\(run.lastLine)")
            }
        }

        /// Tests/Syncthing/session.py: three devices (and a fourth joining late), `folio watch`
        /// on all, six rounds of seeded offline edits (different keys, ingredient lines, a
        /// tick against a priority and a due date, an untick, a key re-edited, a device
        /// offline for two rounds, real clashes); after every round, on every device: the
        /// folders byte-identical, every mergeable edit present exactly once, only the real
        /// clashes left as copies (one each), settled within 40 s, no version restored
        /// unless Syncthing dropped one. About four minutes.
        @Test func threeDevicesConvergeOverASessionOfOfflineEdits() throws {
            guard ExternalTool.find(["syncthing"], install: "apt-get install syncthing") != nil,
                  let run = try PythonHarness.run("Tests/Syncthing/session.py", ["--seed", "1"], timeout: Self.timeout) else { return }
            #expect(!run.timedOut, "session.py did not finish within \(Int(Self.timeout)) s")
            #expect(run.status == 0, "session.py exited \(run.status)")
            let counts = run.lastLine.wholeMatch(of: /(\d+) passed, (\d+) failed/)
            #expect(counts != nil, "last line: \(run.lastLine)")
            if let counts {
                #expect(Int(counts.1)! >= 7 && Int(counts.2)! == 0, "\(run.lastLine)")
            }
        }
    }
}
