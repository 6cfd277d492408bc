@testable import FolioShared
import FolioSystem
import FolioTestSupport
import Foundation
import Testing

/// The follower of a shared folder: what it reports when the folder changes under it.
@Suite struct FoldingFollowerTests {

    /// A folder made again at its path whose history cannot be opened (this device's
    /// name cannot be read) is reported by the follower, not passed over.
    @Test func aFollowedFolderWhoseHistoryCannotBeOpenedIsReported() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-follow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes").path, state = root.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("one\n".utf8).write(to: URL(fileURLWithPath: folder + "/one.md"))
        var options = FoldOptions()
        options.stateDirectory = state
        options.useGit = false
        final class Reports: @unchecked Sendable {
            // Safe: `lock` guards `blocked`.
            let lock = NSLock()
            var blocked: [String] = []
        }
        let reports = Reports()
        let follower = FoldingFollower(folder: try SharedFolder(folder, options: options)) { report in
            if let blocked = report.blocked { reports.lock.withLock { reports.blocked.append(blocked) } }
        }
        follower.start()
        await follower.ready()
        defer { follower.stop() }
        // The folder is made again at its path; this device's name is no longer a file.
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: state + "/device")
        try FileManager.default.createDirectory(atPath: state + "/device", withIntermediateDirectories: true)
        _ = follower.foldNow()
        #expect(reports.lock.withLock { reports.blocked.contains { $0.contains("cannot save this device's name") } })
    }

    /// What a follower reported, kept from its queue.
    final class Reports: @unchecked Sendable {
        // Safe: `lock` guards `all`.
        private let lock = NSLock()
        private var all: [FoldReport] = []
        func add(_ report: FoldReport) { lock.withLock { all.append(report) } }
        var reports: [FoldReport] { lock.withLock { all } }
    }

    /// The follower of `place`'s folder as device a sees it, on `clock`, with no quiet period.
    static func follower(of place: SharedFolderTests.Place, clock: ManualClock, git: Bool = false, reports: Reports) throws -> FoldingFollower {
        var options = FoldOptions()
        options.stateDirectory = place.state
        options.quietPeriod = .zero
        options.useGit = git
        options.clock = clock
        return FoldingFollower(folder: try SharedFolder(place.folder, options: options)) { reports.add($0) }
    }

    /// A fold kept because a write failed (a full disk) is said once, tried again every
    /// ``FoldOptions/writeRetry`` by the follower itself, and folds once there is
    /// room — twelve seconds of retries, on a clock the test moves, in no time.
    @Test func aWriteThatFailedIsSaidOnceTriedAgainAndFoldedOnceThereIsRoom() throws {
        let place = try SharedFolderTests.Place()
        defer { place.remove() }
        try place.clash(mine: SharedFolderTests.recipe([("time: 15m", "time: 20m")]), theirs: SharedFolderTests.recipe([("servings: 4", "servings: 6")]))
        let clock = ManualClock(), reports = Reports(), tries = Counter()
        let follower = try Self.follower(of: place, clock: clock, reports: reports)
        let fullDisk = FaultInjection(failure: { operation, path in
            guard operation == .write && path.contains("/folder/") && path.contains("r.md.folio-") else { return nil }
            _ = tries.next()
            return ENOSPC
        })
        FaultInjection.$current.withValue(fullDisk) {
            _ = follower.foldNow()
            clock.advance(by: .seconds(12))
        }
        // The pass, then a try at 5 s and at 10 s; said once.
        #expect(tries.value == 3)
        let kept = reports.reports.flatMap(\.kept)
        #expect(kept.count == 1 && kept.allSatisfy(\.writeFailed), "\(reports.reports)")
        #expect(reports.reports.flatMap(\.folded).isEmpty)
        // Room again: the next try, 5 s on, folds it without being asked.
        clock.advance(by: .seconds(5))
        #expect(reports.reports.flatMap(\.folded).map(\.copy) == [SharedFolderTests.copyName])
        #expect(place.read("r.md") == SharedFolderTests.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
        #expect(place.read(SharedFolderTests.copyName) == nil)
    }

    /// While git is in the middle of an operation (a rebase stopped to edit), the
    /// follower writes nothing and says so once, however often it looks again (every
    /// second); once git is done, the next look folds — four seconds of it on a clock
    /// the test moves, in no time.
    @Test func whileGitIsMidRebaseNothingIsWrittenAndItIsSaidOnce() throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let place = try SharedFolderTests.Place()
        defer { place.remove() }
        try place.clash(mine: SharedFolderTests.recipe([("time: 15m", "time: 20m")]), theirs: SharedFolderTests.recipe([("servings: 4", "servings: 6")]))
        let theirs = place.read("r.md")
        func run(_ arguments: [String]) throws {
            let done = try ExternalTool.run(git, ["-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "init.defaultBranch=main"] + arguments, in: place.folder)
            #expect(done.status == 0, "git \(arguments): \(done.errors)")
        }
        // Two commits of another file; the rebase stops at the second, to edit it.
        try run(["init", "-q"])
        for text in ["one", "two"] {
            try place.write(text, "notes.txt")
            try run(["add", "notes.txt"])
            try run(["commit", "-qm", text])
        }
        try run(["-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "-q", "-i", "HEAD~1"])
        #expect(FileManager.default.fileExists(atPath: place.folder + "/.git/rebase-merge"))
        let clock = ManualClock(), reports = Reports()
        let follower = try Self.follower(of: place, clock: clock, git: true, reports: reports)
        #expect(follower.foldNow().blocked?.contains("rebase") == true)
        clock.advance(by: .seconds(4))
        #expect(reports.reports.compactMap(\.blocked).count == 1, "\(reports.reports)")
        #expect(place.read("r.md") == theirs && place.read(SharedFolderTests.copyName) != nil)
        try run(["rebase", "--continue"])
        clock.advance(by: .seconds(1))
        #expect(reports.reports.flatMap(\.folded).map(\.copy) == [SharedFolderTests.copyName], "\(reports.reports)")
        #expect(place.read("r.md") == SharedFolderTests.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
    }

    /// A file the store's watcher just read is recorded from that read, not read again
    /// (the offered bytes, which are not on disk, are what the history logs); one changed
    /// since it was read (its stamp differs) is read again.
    @Test func aFileTheWatcherJustReadIsRecordedFromThatRead() async throws {
        let place = try SharedFolderTests.Place(shared: false)
        defer { place.remove() }
        try place.write(SharedFolderTests.recipe, "r.md")
        let clock = ManualClock(), reports = Reports()
        let follower = try Self.follower(of: place, clock: clock, reports: reports)
        follower.start()
        await follower.ready()
        defer { follower.stop() }
        func lastVersion() -> String? { follower.withFolder { $0.historyEvents(at: "r.md") }.max { $0.time < $1.time }?.contentHash }
        let edited = SharedFolderTests.recipe([("time: 15m", "time: 20m")])
        try place.write(edited, "r.md")
        // Left alone for the record's quiet period, by the follower's clock.
        clock.catchUpWithTheWall()
        clock.advance(by: .seconds(1))
        let stamp = try FileStamp.of(RootedFolder(place.folder)["r.md"])
        let offered = Array("---\ntitle: As the watcher read it\n---\n".utf8)
        follower.offer([FileRead(path: "r.md", bytes: offered, stamp: stamp)])
        follower.changed(["r.md"])
        #expect(lastVersion() == SHA256.hash(offered).description)
        // Saved again after the watcher's read: the file is read, not the stale read taken.
        let again = SharedFolderTests.recipe([("time: 15m", "time: 25m")])
        try place.write(again, "r.md")
        clock.catchUpWithTheWall()
        clock.advance(by: .seconds(1))
        follower.offer([FileRead(path: "r.md", bytes: offered, stamp: stamp)])
        follower.changed(["r.md"])
        #expect(lastVersion() == SHA256.hash(Array(again.utf8)).description)
    }
}
