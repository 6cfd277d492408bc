import FolioTestSupport
import Foundation
import Testing
@testable import FolioSystem
@testable import FolioVersions

/// The history of versions: recorded, read back, cut lines ignored, bounded.
@Suite struct VersionHistoryTests {
    /// A fresh temporary folder whose `state` is the history's state folder.
    struct Place {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-history-\(UUID().uuidString)")
        var state: String { root.appendingPathComponent("state").path }
        init() throws { try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) }
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func versionsAreRecordedOnceAndReadBackAcrossOpenings() throws {
        let place = try Place()
        defer { place.remove() }
        let history = VersionHistory(state: try RootedFolder.creating(place.state))
        try FileManager.default.createDirectory(atPath: place.state, withIntermediateDirectories: true)
        try history.record(Array("one".utf8), at: "a.md", time: 10)
        try history.record(Array("one".utf8), at: "a.md", time: 20)
        try history.record(Array("two".utf8), at: "a.md", time: 30)
        try history.record(Array("one".utf8), at: "b.md", time: 40)
        try history.record([0, 1, 2], at: "binary.md", time: 50)
        try history.flush()
        let reopened = VersionHistory(state: try RootedFolder.creating(place.state))
        #expect(reopened.versions(of: "a.md").map(\.time) == [10, 30])
        #expect(reopened.firstSeen(SHA256.hash(Array("one".utf8))) == 10)
        #expect(reopened.versions(of: "binary.md").isEmpty)
        #expect(reopened.contents(of: SHA256.hash(Array("two".utf8))) == Array("two".utf8))
        // A line cut short by a crash is ignored.
        try AtomicFile.append(Array("60\tabc".utf8), to: RootedFolder(place.state)["history.log"], flushing: false)
        #expect(VersionHistory(state: try RootedFolder.creating(place.state)).versions.count == 3)
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
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(atPath: place.state, withIntermediateDirectories: true)
        let history = VersionHistory(state: try RootedFolder.creating(place.state))
        for index in 0..<40 { try history.record(Array("version \(index)\n".utf8), at: "a.md", time: Int64(index)) }
        try history.flush()
        let archived = SHA256.hash(Array("version 0\n".utf8))
        try history.prune(now: 100, keeping: [archived])
        let reopened = VersionHistory(state: try RootedFolder.creating(place.state))
        #expect(reopened.versions(of: "a.md").count == VersionHistory.Limits().versionsPerPath)
        #expect(reopened.contents(of: archived) == Array("version 0\n".utf8))
        #expect(reopened.contents(of: SHA256.hash(Array("version 39\n".utf8))) == Array("version 39\n".utf8))
        #expect(reopened.contents(of: SHA256.hash(Array("version 1\n".utf8))) == nil)
        #expect(FileManager.default.fileExists(atPath: place.state + "/bases-1.pack") && !FileManager.default.fileExists(atPath: place.state + "/bases.pack"))
    }

    @Test func pruningOnceGrownTakesTheLogAndWhatIsPendingOnceEach() throws {
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(atPath: place.state, withIntermediateDirectories: true)
        let history = VersionHistory(state: try RootedFolder.creating(place.state))
        for index in 0..<10 { try history.record(Array("version \(index)\n".utf8), at: "a.md", time: Int64(index)) }
        try history.flush()
        // Pending, not yet in the log: enough lines (about 80 bytes each) to pass 64 KiB.
        for index in 0..<1000 { try history.record(Array("file \(index)\n".utf8), at: "p\(index).md", time: 50) }
        var limits = VersionHistory.Limits()
        limits.versionsPerPath = 4
        try history.pruneIfGrown(now: 100, limits: limits)
        let reopened = VersionHistory(state: try RootedFolder.creating(place.state))
        #expect(reopened.versions(of: "a.md").map(\.time) == [6, 7, 8, 9])
        #expect(reopened.versions.count == 1004)
        #expect(reopened.contents(of: SHA256.hash(Array("file 999\n".utf8))) == Array("file 999\n".utf8))
        #expect(reopened.contents(of: SHA256.hash(Array("version 0\n".utf8))) == nil)
    }
}
