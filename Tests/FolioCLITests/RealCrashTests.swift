import Foundation
import FolioTestSupport
import Testing

extension HarnessTests {
    /// Real crashes, beside the simulated ones: Tests/Crash/realkill.py kills a real
    /// `folio sync` with SIGKILL at random moments over thousands of files edited on both
    /// sides, syncs to the end after each round, and checks that the replicas agree, that a
    /// further sync changes nothing, that no temporary file is left, and that every version
    /// either side last wrote is in A, B or the trash (traced by unique tokens). The seed
    /// is printed; `FOLIO_SEED=N` replays it.
    @Suite struct RealCrashTests {
        /// At least this many kills a run.
        static let kills = 200

        @Test func syncsKilledAtRandomMomentsLoseNothing() throws {
            guard let run = try PythonHarness.run("Tests/Crash/realkill.py", ["--kills", "\(Self.kills)"], timeout: 900) else { return }
            #expect(!run.timedOut, "realkill.py did not finish within 900 s")
            #expect(run.status == 0, "realkill.py exited \(run.status)")
            let counts = run.output.firstMatch(of: /kills (\d+) in (\d+) rounds .*, tokens traced (\d+), lost 0,/)
            #expect(counts != nil, "no summary line in the output")
            if let counts {
                #expect(Int(counts.1)! >= Self.kills, "only \(counts.1) kills")
                #expect(Int(counts.3)! > 0, "no token traced")
            }
        }
    }
}

extension HarnessTests {
    /// Tests/Crash/racewriter.py: a writer saving edits into both replicas (as a careful
    /// editor: it never overwrites a file the sync changed after it read it) while
    /// `folio sync` runs in a loop, then while `folio watch A B` runs; every line it
    /// wrote and did not replace itself must be in A, B or the trash.
    @Suite struct RaceWriterTests {
        @Test func editsSavedWhileSyncsRunAreNeverLost() throws {
            guard let run = try PythonHarness.run("Tests/Crash/racewriter.py", ["--seconds", "15"], timeout: 600) else { return }
            #expect(!run.timedOut, "racewriter.py did not finish within 600 s")
            #expect(run.status == 0, "racewriter.py exited \(run.status)")
            let counts = run.lastLine.wholeMatch(of: /syncs (\d+), saves (\d+), lines traced (\d+), lost 0/)
            #expect(counts != nil, "last line: \(run.lastLine)")
            if let counts {
                #expect(Int(counts.1)! >= 10 && Int(counts.2)! >= 1_000 && Int(counts.3)! >= 300, "\(run.lastLine)")
            }
        }
    }
}
