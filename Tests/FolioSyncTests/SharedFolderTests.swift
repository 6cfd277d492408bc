import Foundation
import FolioTestSupport
import Testing
@testable import FolioSync
@testable import FolioSystem

/// Folding other tools' conflict copies in one shared folder, on real folders: the base
/// from Folio's history, Syncthing's .stversions and git; clashes kept; guarded writes;
/// the copy in the trash; the same bytes on every device.
@Suite struct SharedFolderTests {
    static let recipe = "---\ntitle: Soup\nkind: recipe\ntime: 15m\nservings: 4\n---\nHot.\n\n## Ingredients\n- Water\n\n## Steps\n1. Boil.\n"
    static let copyName = "r.sync-conflict-20261201-120000-ABCDEFG.md"

    /// A folder and a state folder, fresh for each test.
    struct Place {
        let root: URL
        var folder: String { root.appendingPathComponent("folder").path }
        var state: String { root.appendingPathComponent("state").path }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-shared-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: root.appendingPathComponent("folder").path, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func write(_ text: String, _ path: String) throws {
            let full = folder + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }

        func read(_ path: String) -> String? {
            FileManager.default.contents(atPath: folder + "/" + path).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Writes each of `versions` to `path` in turn, each recorded in the history as
        /// the watcher would.
        func save(_ versions: [String], at path: String = "r.md") throws {
            for version in versions {
                try write(version, path)
                try open().record()
            }
        }

        /// A shared folder with no quiet period (the tests write, then fold at once).
        func open(git: Bool = false) throws -> SharedFolder {
            var options = FoldOptions()
            options.stateDirectory = state
            options.quietPeriod = .zero
            options.useGit = git
            return try SharedFolder(folder, options: options)
        }
    }

    @Test func aCopyIsFoldedAgainstTheVersionSeenBeforeBothEdits() throws {
        let place = try Place()
        defer { place.remove() }
        // This device set time 20m (seen); Syncthing brought the phone's servings 6 and
        // kept this device's version as the copy.
        try place.save([Self.recipe, Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")])
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open().fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .history)] && report.rescued.isEmpty)
        #expect(place.read("r.md") == Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 4", with: "servings: 6"))
        #expect(place.read(Self.copyName) == nil)
        // In the trash, restorable: the copy, and the file's version the fold replaced.
        let trashed = Trash(state: place.state).items()
        #expect(Set(trashed.map(\.path)) == [Self.copyName, "r.md"])
    }

    @Test func aLongRunningFollowerKeepsItsHistoryWithinItsLimits() throws {
        let place = try Place()
        defer { place.remove() }
        let folder = try SharedFolder(place.folder, options: { var o = FoldOptions(); o.stateDirectory = place.state; return o }())
        // Far more versions of one file than a path keeps (32), recorded one at a time as
        // `folio watch` does, with no process start in between to prune.
        let limit = VersionHistory.Limits().versionsPerPath
        for n in 0..<1_500 {
            try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: \(n)"), "r.md")
            try folder.record(["r.md"])
        }
        let kept = folder.history.versions(of: "r.md")
        let log = try FileManager.default.attributesOfItem(atPath: place.state + "/history.log")[.size] as? Int ?? 0
        // Pruning waits for the log to grow by half (and 64 KiB), so some versions past the limit may wait too.
        #expect(kept.count >= limit && kept.count < 1_000, "\(kept.count) versions kept")
        #expect(log < 160 << 10, "the history log is \(log) bytes")
        #expect(kept.last.flatMap { folder.history.contents(of: $0.hash) }.map { String(decoding: $0, as: UTF8.self).contains("servings: 1499") } == true)
    }

    @Test func aClashKeepsTheCopyAndSaysWhere() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        try place.open().record()
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 25m"), "r.md")
        let report = try place.open().fold()
        #expect(report.folded.isEmpty)
        #expect(report.kept == [.init(copy: Self.copyName, file: "r.md", reason: "time (25m | 20m)")])
        #expect(place.read(Self.copyName) != nil && place.read("r.md")!.contains("time: 25m"))
    }

    @Test func withoutAnEarlierVersionTheCopyStays() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open().fold()
        #expect(report.kept == [.init(copy: Self.copyName, file: "r.md", reason: "no earlier version of r.md is known to serve as the base")])
        #expect(place.read(Self.copyName) != nil)
    }

    @Test func theOnlyRecordedVersionBeingASideIsNoBase() throws {
        // The history holds only the copy's content (this device's edit): using it as the
        // base would take the file whole and drop the copy's edit.
        let place = try Place()
        defer { place.remove() }
        let mine = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        try place.write(mine, "r.md")
        try place.open().record()
        try place.write(mine, Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open().fold()
        #expect(report.folded.isEmpty && report.kept.count == 1)
        #expect(place.read(Self.copyName) == mine)
    }

    @Test func aDeviceThatSavedTwiceWhileApartFoldsAgainstTheVersionBothHad() throws {
        // Offline, this device saved time 20m, then a new title (both recorded); the
        // other device, which never had either save, set servings 6 and won. The newest
        // version older than either side is this device's first save — not an ancestor
        // of the other side, which would then seem to set time back to 15m.
        let place = try Place()
        defer { place.remove() }
        let first = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        let second = first.replacingOccurrences(of: "title: Soup", with: "title: Soup Deluxe")
        try place.save([Self.recipe, first, second])
        try place.write(second, Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open().fold()
        #expect(report.folded.count == 1)
        #expect(place.read("r.md") == second.replacingOccurrences(of: "servings: 4", with: "servings: 6"))
    }

    @Test func aVersionTheSyncToolDroppedIsWrittenBackAndFolded() throws {
        // Three devices clashed in one second: this device's edit (time 20m) lost, and its
        // copy was overwritten by the other loser's (same copy name). Folio recorded it.
        let place = try Place()
        defer { place.remove() }
        try place.save([
            Self.recipe, Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"),
            Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"),
        ])
        try place.write(Self.recipe.replacingOccurrences(of: "title: Soup", with: "title: Soup Deluxe"), Self.copyName)
        let report = try place.open().fold()
        #expect(report.rescued.count == 1 && report.rescued.allSatisfy { $0.hasPrefix("r.sync-conflict-") && $0.hasSuffix("-FOLIOSV.md") })
        #expect(report.folded.count == 2 && report.kept.isEmpty)
        #expect(place.read("r.md") == Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
            .replacingOccurrences(of: "servings: 4", with: "servings: 6").replacingOccurrences(of: "title: Soup", with: "title: Soup Deluxe"))
        // Nothing is rescued again once everything is in.
        #expect(try place.open().fold() == FoldReport())
    }

    @Test func syncthingVersionsServeAsBases() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, ".stversions/r~20261130-100000.md")
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open().fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .syncthingVersions)])
        #expect(place.read("r.md")!.contains("time: 20m") && place.read("r.md")!.contains("servings: 6"))
    }

    @Test func gitsLastCommitServesAsTheBase() throws {
        let place = try Place()
        defer { place.remove() }
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        try place.write(Self.recipe, "r.md")
        for arguments in [["init", "-q"], ["add", "r.md"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "r"]] {
            #expect(try ExternalTool.run(git, ["-C", place.folder] + arguments).status == 0)
        }
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "r (Anna's conflicted copy 2026-11-30).md")
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open(git: true).fold()
        #expect(report.folded == [.init(copy: "r (Anna's conflicted copy 2026-11-30).md", file: "r.md", base: .git)])
        #expect(place.read("r.md")!.contains("time: 20m") && place.read("r.md")!.contains("servings: 6"))
    }

    @Test func aCopyOfACopyIsFoldedToo() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        try place.open().record()
        let copyOfCopy = "r.sync-conflict-20261201-120000-ABCDEFG.sync-conflict-20261201-130000-HIJKLMN.md"
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "## Steps", with: "- Salt\n\n## Steps"), copyOfCopy)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        let report = try place.open().fold()
        #expect(report.folded.count == 2 && report.kept.isEmpty)
        let merged = place.read("r.md")!
        #expect(merged.contains("time: 20m") && merged.contains("servings: 6") && merged.contains("- Salt"))
        #expect(place.read(Self.copyName) == nil && place.read(copyOfCopy) == nil)
    }

    @Test func aCopyTheSyncToolIsStillWritingWaits() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        try place.open().record()
        try place.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName)
        try place.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md")
        var quiet = FoldOptions()
        quiet.stateDirectory = place.state
        quiet.quietPeriod = .milliseconds(800)
        // The file and its copy are left alone for the quiet period (a change time cannot
        // be set back, so the test waits), while the tool keeps writing its temporary file.
        Thread.sleep(forTimeInterval: 0.9)
        try place.write("partial", ".syncthing.r.md.tmp")
        #expect(try SharedFolder(place.folder, options: quiet).fold().waiting == [Self.copyName])
        // A quiet period not yet over waits too.
        try FileManager.default.removeItem(atPath: place.folder + "/.syncthing.r.md.tmp")
        var long = quiet
        long.quietPeriod = .seconds(60)
        #expect(try SharedFolder(place.folder, options: long).fold().waiting == [Self.copyName])
        // A temporary file the tool left and no longer writes (an abandoned transfer,
        // which Syncthing keeps for a day) holds nothing back.
        try place.write("partial", ".syncthing.r.md.tmp")
        Thread.sleep(forTimeInterval: 0.9)
        #expect(try SharedFolder(place.folder, options: quiet).fold().folded.count == 1)
    }

    @Test func everyDeviceWritesTheSameBytes() throws {
        // Two devices, each with its own history: one saw its own edit (the copy's
        // content), the other the phone's (the file's). Both fold to the same bytes.
        let laptop = try Place(), phone = try Place()
        defer {
            laptop.remove()
            phone.remove()
        }
        let mine = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        let theirs = Self.recipe.replacingOccurrences(of: "## Steps", with: "- Salt\n\n## Steps").replacingOccurrences(of: "servings: 4", with: "servings: 6")
        for (place, seen) in [(laptop, mine), (phone, theirs)] {
            try place.save([Self.recipe, seen])
            try place.write(theirs, "r.md")
            try place.write(mine, Self.copyName)
            #expect(try place.open().fold().folded.count == 1)
        }
        #expect(laptop.read("r.md") == phone.read("r.md"))
        #expect(laptop.read("r.md")!.contains("time: 20m") && laptop.read("r.md")!.contains("- Salt"))
    }

    @Test func aSecondProcessCannotTakeTheLockButThisOneShares() throws {
        let place = try Place()
        defer { place.remove() }
        let held = try StateLock.acquire(place.state)
        // The same process shares it (a watch whose syncs take it too).
        let again = try StateLock.acquire(place.state, wait: .zero)
        withExtendedLifetime((held, again)) {}
        let pid = String(decoding: try FileReading.contents(of: place.state + "/lock"), as: UTF8.self)
        #expect(pid == "\(Syscall.processID())\n")
    }
}

/// The history of versions: recorded, read back, cut lines ignored, bounded.
@Suite struct VersionHistoryTests {
    @Test func versionsAreRecordedOnceAndReadBackAcrossOpenings() throws {
        let place = try SharedFolderTests.Place()
        defer { place.remove() }
        let history = VersionHistory(state: place.state)
        try FileManager.default.createDirectory(atPath: place.state, withIntermediateDirectories: true)
        try history.record(Array("one".utf8), at: "a.md", time: 10)
        try history.record(Array("one".utf8), at: "a.md", time: 20)
        try history.record(Array("two".utf8), at: "a.md", time: 30)
        try history.record(Array("one".utf8), at: "b.md", time: 40)
        try history.record([0, 1, 2], at: "binary.md", time: 50)
        try history.flush()
        let reopened = VersionHistory(state: place.state)
        #expect(reopened.versions(of: "a.md").map(\.time) == [10, 30])
        #expect(reopened.firstSeen(SHA256.hash(Array("one".utf8))) == 10)
        #expect(reopened.versions(of: "binary.md").isEmpty)
        #expect(reopened.contents(of: SHA256.hash(Array("two".utf8))) == Array("two".utf8))
        // A line cut short by a crash is ignored.
        let fd = try Syscall.openForAppending(place.state + "/history.log")
        try Syscall.writeAll(fd, Array("60\tabc".utf8), path: "log")
        Syscall.close(fd)
        #expect(VersionHistory(state: place.state).versions.count == 3)
    }

    @Test func pruningKeepsTheNewestOfEachPathWithinCountAgeAndSize() throws {
        let day: Int64 = 86_400 * 1_000_000_000
        func version(_ path: String, _ text: String, _ time: Int64, size: Int = 10) -> VersionHistory.Version {
            .init(path: path, hash: SHA256.hash(Array(text.utf8)), time: time, size: size)
        }
        var limits = VersionHistory.Limits()
        limits.versionsPerPath = 2
        limits.maximumAgeDays = 10
        limits.totalBytes = 45
        let now = 100 * day
        let versions = [
            version("a", "a1", 50 * day), version("a", "a2", 95 * day), version("a", "a3", 96 * day), version("a", "a4", 97 * day),
            version("old", "o1", 10 * day), version("b", "b1", 98 * day), version("b", "b2", 99 * day),
        ]
        let kept = VersionHistory.retained(versions, now: now, limits: limits)
        // Count: a3, a4; age: old's only version stays (its newest); size 45: the oldest go first.
        #expect(kept.map(\.path) + kept.map { String($0.time / day) } == ["a", "old", "b", "b", "97", "10", "98", "99"])
    }

    @Test func pruningGivesBackTheSpaceAndKeepsWhatItIsAskedTo() throws {
        let place = try SharedFolderTests.Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(atPath: place.state, withIntermediateDirectories: true)
        let history = VersionHistory(state: place.state)
        for index in 0..<40 { try history.record(Array("version \(index)\n".utf8), at: "a.md", time: Int64(index)) }
        try history.flush()
        let archived = SHA256.hash(Array("version 0\n".utf8))
        try history.prune(now: 100, keeping: [archived])
        let reopened = VersionHistory(state: place.state)
        #expect(reopened.versions(of: "a.md").count == VersionHistory.Limits().versionsPerPath)
        #expect(reopened.contents(of: archived) == Array("version 0\n".utf8))
        #expect(reopened.contents(of: SHA256.hash(Array("version 39\n".utf8))) == Array("version 39\n".utf8))
        #expect(reopened.contents(of: SHA256.hash(Array("version 1\n".utf8))) == nil)
        #expect(FileManager.default.fileExists(atPath: place.state + "/bases-1.pack") && !FileManager.default.fileExists(atPath: place.state + "/bases.pack"))
    }
}
