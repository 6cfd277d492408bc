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

        @Test func syncsKilledAtRandomMomentsLoseNothing() async throws {
            guard let run = try await PythonHarness.run("Tests/Crash/realkill.py", ["--kills", "\(Self.kills)"], timeout: 900) else { return }
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
    /// Tests/Crash/racewriter.py on a loaded machine (two busy loops and a process
    /// flushing 64 MB at a time): a writer edits (swapping a new file in and reading
    /// back what it displaced), deletes, renames (then goes on working on the new name)
    /// and appends, in both replicas, while one sync loop, two at once, or `folio watch
    /// A B` run; after each round the pair is synced to rest, and every line the writer
    /// wrote and did not remove itself must be in A, B or the trash. Six rounds of 3 s.
    @Suite struct RaceWriterTests {
        @Test func linesWrittenWhileSyncsRunOnABusyMachineAreNeverLost() async throws {
            guard let run = try await PythonHarness.run("Tests/Crash/racewriter.py", ["--rounds", "6", "--load"], timeout: 600) else { return }
            #expect(!run.timedOut, "racewriter.py did not finish within 600 s")
            #expect(run.status == 0, "racewriter.py exited \(run.status)")
            let counts = run.lastLine.wholeMatch(of: /rounds 6, syncs (\d+), operations (\d+), lines written (\d+), lines lost 0, other failures 0/)
            #expect(counts != nil, "last line: \(run.lastLine)")
            if let counts {
                #expect(Int(counts.1)! >= 10 && Int(counts.2)! >= 1_000 && Int(counts.3)! >= 500, "\(run.lastLine)")
            }
        }
    }
}
