@testable import FolioGit
import FolioTestSupport
import Foundation
import Testing

/// The follower behind `folio watch DIR --git-sync`, on a clock the test moves: a pass
/// once edits have settled, others' commits brought in every `fetchEvery`, an
/// unreachable remote said once.
@Suite struct GitSyncFollowerTests {
    static let recipe = ConflictCopyFixture.recipe
    static func recipe(_ changes: [(String, String)]) -> String { ConflictCopyFixture.recipe(changes) }

    /// The outcomes a follower said, kept from its queue.
    final class Outcomes: @unchecked Sendable {
        // Safe: `lock` guards `all`.
        private let lock = NSLock()
        private var all: [Result<GitSyncReport, GitSyncError>] = []
        func add(_ outcome: Result<GitSyncReport, GitSyncError>) { lock.withLock { all.append(outcome) } }
        var outcomes: [Result<GitSyncReport, GitSyncError>] { lock.withLock { all } }
    }

    @Test func editsArePushedOnceSettledAndOthersCommitsComeInEveryMinute() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP"), phone = try await devices.clone("PHONE")
        let clock = ManualClock(), outcomes = Outcomes()
        let follower = GitSyncFollower(try GitSync(laptop.folder, options: laptop.options), commitAfter: .seconds(2), fetchEvery: .seconds(60), clock: clock) { outcomes.add($0) }
        follower.start()
        follower.caughtUp()
        defer { follower.stop() }
        let first = try await devices.remoteHead()
        // Edits 1.5 s apart: nothing is committed until two seconds after the last.
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        follower.changed()
        follower.caughtUp()
        await advance(clock, by: .milliseconds(1500))
        try laptop.write(Self.recipe([("time: 15m", "time: 25m")]), "r.md")
        follower.changed()
        follower.caughtUp()
        await advance(clock, by: .milliseconds(1500))
        #expect(try await devices.remoteHead() == first, "pushed before the edits settled")
        await advance(clock, by: .milliseconds(600))
        #expect(try await devices.remoteHead() != first, "not pushed two seconds after the last edit: \(outcomes.outcomes)")
        #expect(try await laptop.git(["log", "--oneline"]).split(separator: "\n").count == 2, "one commit for both edits")
        // The phone's edit comes in at the next minute's pass, with nothing done meanwhile.
        try phone.write("---\ntitle: Bread\n---\n", "bread.md")
        _ = try await phone.sync()
        await advance(clock, by: .seconds(30))
        #expect(laptop.read("bread.md") == nil)
        await advance(clock, by: .seconds(31))
        #expect(laptop.read("bread.md") == "---\ntitle: Bread\n---\n")
    }

    @Test func anUnreachableRemoteIsSaidOnceAndItsEndToo() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP")
        try await laptop.git(["remote", "set-url", "origin", "ssh://127.0.0.1:1/nowhere.git"])
        let clock = ManualClock(), outcomes = Outcomes()
        let follower = GitSyncFollower(try GitSync(laptop.folder, options: laptop.options), commitAfter: .seconds(2), fetchEvery: .seconds(60), clock: clock) { outcomes.add($0) }
        follower.start()
        follower.caughtUp()
        defer { follower.stop() }
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        follower.changed()
        follower.caughtUp()
        // Ten minutes offline: the passes back off, and it is said once — at the first pass
        // (nothing to commit); the edit's commit is told, without the stop again.
        await advance(clock, by: .seconds(600))
        let reports = outcomes.outcomes.compactMap { try? $0.get() }
        #expect(reports.map { $0.stopped?.kind } == [.offline, nil], "\(outcomes.outcomes)")
        #expect(reports.last?.events.contains { if case .committed = $0 { true } else { false } } == true, "\(outcomes.outcomes)")
        #expect(try await laptop.git(["status", "--porcelain"]).isEmpty, "the edit is committed here")
        // Back: the next pass pushes, and says so.
        try await laptop.git(["remote", "set-url", "origin", devices.remote])
        await advance(clock, by: .seconds(300))
        let last = outcomes.outcomes.last.flatMap { try? $0.get() }
        #expect(last?.events.contains(.pushed(upstream: "origin/main", commits: 1)) == true, "\(outcomes.outcomes)")
    }
}
