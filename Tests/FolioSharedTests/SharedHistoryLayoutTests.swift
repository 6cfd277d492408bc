@testable import FolioShared
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Where a folder's history is kept: a device's own in its state folder; `.folio/` in the
/// folder only when a sync tool shares it, holding the logs and only the versions another
/// device may still need as a base.
@Suite struct SharedHistoryLayoutTests {
    typealias Place = SharedFolderTests.Place
    static let recipe = SharedFolderTests.recipe
    static let copyName = SharedFolderTests.copyName

    @Test func aFolderNoSyncToolSharesGetsNothingWritten() throws {
        let place = try Place(shared: false)
        defer { place.remove() }
        try place.save([Self.recipe, SharedFolderTests.recipe([("time: 15m", "time: 20m")])])
        func kinds() throws -> [Substring] {
            try String(contentsOfFile: place.state + "/history/log", encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t")[2] }
        }
        #expect(try kinds() == ["edit", "edit"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: place.state + "/history")) == ["log", "bases.pack", "bases.index"])
        let folder = try place.open()
        #expect(folder.fold() == FoldReport())
        // With one device, the first version is superseded: the log and the pack keep the second.
        try folder.pruneHistory()
        #expect(try kinds() == ["edit"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: place.state + "/history")) == ["log", "bases-1.pack", "bases.index"])
        #expect(place.listing(".folio") == nil)
        #expect(folder.history.sharedBecause == nil)
    }

    @Test func aSyncToolsMarkerAboveTheFolderSharesIt() throws {
        let place = try Place(shared: false)
        defer { place.remove() }
        try FileManager.default.createDirectory(atPath: place.root.path + "/.stfolder", withIntermediateDirectories: true)
        try place.save([Self.recipe])
        let folder = try place.open()
        #expect(folder.history.sharedBecause == "Syncthing's .stfolder in " + place.root.path)
        func published() throws -> String { try String(contentsOfFile: place.folder + "/.folio/logs/" + folder.deviceName + ".log", encoding: .utf8) }
        func local() throws -> String { try String(contentsOfFile: place.state + "/history/log", encoding: .utf8) }
        // While no other device keeps a history, the log is empty: it only says this one does.
        #expect(try published() == "")
        #expect(try local().split(separator: "\n").count == 1)
        #expect(place.listing(".folio") == [".gitignore", "logs", "logs/" + folder.deviceName + ".log"])
        try place.save([SharedFolderTests.recipe([("time: 15m", "time: 20m")])])
        #expect(try published() == "")
        // Once another does, the lines go out.
        try place.open("b").record()
        try place.open("a").record()
        // The same lines (the own log gives the hashes in base64url, the published one in hex).
        func events(_ text: String) -> [VersionEvent] { VersionEvent.parse(Array(text.utf8), device: folder.deviceName) }
        #expect(events(try published()) == events(try local()))
        #expect(try published().split(separator: "\n").count == 2)
    }

    @Test func aConflictCopySeenSharesTheFolder() throws {
        let place = try Place(shared: false)
        defer { place.remove() }
        try place.save([Self.recipe])
        #expect(place.listing(".folio") == nil)
        try place.write(SharedFolderTests.recipe([("time: 15m", "time: 20m")]), Self.copyName)
        let folder = try place.open()
        try folder.record()
        #expect(folder.history.sharedBecause == "a conflict copy (\(Self.copyName)) was seen")
        #expect(place.listing(".folio/logs") == [folder.deviceName + ".log"])
    }

    @Test func sharedFalseInFolioYamlWinsOverEveryMarker() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        try place.write("shared: false\n", "folio.yaml")
        try place.write(Self.recipe, "r.md")
        try place.write(SharedFolderTests.recipe([("time: 15m", "time: 20m")]), Self.copyName)
        let folder = try place.open()
        try folder.record()
        #expect(folder.history.sharedBecause == nil)
        #expect(place.listing(".folio") == nil)
        try place.write("shared: true\n", "folio.yaml")
        #expect(try place.open().history.sharedBecause == "folio.yaml says shared: true")
    }

    @Test func anEarlierFoliosHistoryInTheFolderMovesToTheStateFolder() throws {
        let place = try Place(shared: false)
        defer { place.remove() }
        let device = try place.open().deviceName
        // As Folio kept it before: .folio/logs/DEVICE.log and .folio/versions/HH/HASH.
        let bytes = Array(Self.recipe.utf8), hash = SHA256.hash(bytes), hex = hash.description
        let event = VersionEvent(id: .init(device: device, sequence: 1), time: 1, kind: .edit, version: hash, path: "r.md")
        try place.write(String(decoding: event.line, as: UTF8.self), ".folio/logs/\(device).log")
        try place.write(Self.recipe, ".folio/versions/\(hex.prefix(2))/\(hex)")
        try place.write("# Folio's shared history of this folder: never committed.\n*\n", ".folio/.gitignore")
        let folder = try place.open()
        #expect(place.listing(".folio") == nil)
        #expect(folder.history.graph.latest(device: device, path: "r.md")?.id == event.id)
        #expect(folder.history.contents(of: hash) == bytes)
        #expect(try String(contentsOfFile: place.state + "/history/log", encoding: .utf8) == String(decoding: event.line, as: UTF8.self))
    }

    @Test func aSharedFolderHoldsOnlyTheVersionsAnotherDeviceMayStillNeed() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        func version(_ changes: [(String, String)]) -> String { SharedFolderTests.recipe(changes) }
        let v1 = version([("time: 15m", "time: 17m")]), v2 = version([("time: 15m", "time: 20m")])
        try place.save([Self.recipe], on: "a")
        try place.save([Self.recipe], on: "b")
        // Replaced while the phone keeps a history: the laptop's first version may become its base.
        try place.save([v1], on: "a")
        let a = try place.open("a").deviceName
        func published() -> [String]? { place.listing(".folio/versions/" + a) }
        func hash(_ text: String) -> String { SHA256.hash(Array(text.utf8)).description }
        #expect(published() == [hash(Self.recipe)])
        // The phone takes the 17m version; the laptop edits it again. Every device is past
        // the first version: the record that sees the phone's line prunes it; the phone
        // still holds 17m.
        try place.open("b").record()
        try place.save([v2], on: "a")
        #expect(published() == [hash(v1)])
        try place.open("a").pruneHistory()
        #expect(published() == [hash(v1)])
        // Once the phone has moved past it too, it goes.
        try place.open("b").record()
        let again = try place.open("a")
        try again.pruneHistory()
        #expect(published() == [])
        // What every device's file holds is never published; this device keeps it in its own history.
        #expect(again.history.contents(of: SHA256.hash(Array(v2.utf8))) == Array(v2.utf8))
        // The device's own log keeps its last edit; the published one holds neither the
        // lines compaction dropped nor that edit, which both devices hold (settled).
        func lines(_ path: String) throws -> [Substring] { try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") }
        let own = VersionEvent.parse(Array(try String(contentsOfFile: place.state(of: "a") + "/history/log", encoding: .utf8).utf8), device: a)
        #expect(own.map(\.version) == [SHA256.hash(Array(v2.utf8))])
        #expect(try lines(place.folder + "/.folio/logs/" + a + ".log") == [])
    }

    /// A line naming the version every device holds, alone at its path in each device's
    /// log, tells no one anything: the published logs drop it once every device compacted
    /// there, and it goes out again with the next edit, which still folds against it.
    @Test func settledLinesLeaveThePublishedLogsAndComeBackWithTheNextEdit() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        let v1 = SharedFolderTests.recipe([("time: 15m", "time: 17m")])
        try place.write(Self.recipe, "r.md")
        for device in ["a", "b", "a"] { try place.open(device).record() }
        try place.save([v1], on: "a")
        try place.open("b").record()
        func published(_ device: String) throws -> [Substring] {
            let name = try place.open(device).deviceName
            return try String(contentsOfFile: place.folder + "/.folio/logs/" + name + ".log", encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t")[2] }
        }
        #expect(try published("a") == ["edit", "edit"])
        // (The phone's first sighting is compacted away at once: both hold v1.)
        #expect(try published("b") == ["arrival"])
        // Each compacts in turn: the first sighting goes; then each line left names what both hold.
        for device in ["a", "b", "a", "b"] { try place.open(device).pruneHistory() }
        #expect(try published("a") == [])
        #expect(try published("b") == [])
        // The laptop edits again (its settled line goes out with the edit); the phone,
        // offline, edits v1 too, and Syncthing makes the phone's version a copy.
        let laptop = SharedFolderTests.recipe([("time: 15m", "time: 20m")])
        let phone = SharedFolderTests.recipe([("time: 15m", "time: 17m"), ("servings: 4", "servings: 6")])
        try place.save([laptop], on: "a")
        #expect(try published("a") == ["edit", "edit"])
        try place.save([phone], on: "b")
        try place.write(laptop, "r.md")
        try place.write(phone, Self.copyName)
        let report = try place.open("a").fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .history)], "\(report)")
        #expect(place.read("r.md") == SharedFolderTests.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
    }

    /// A device that joins a folder sees every file once: those lone first sightings stay
    /// in its own log, and go out with the next event at their path.
    @Test func aFileADeviceOnlySawIsNotPublishedUntilItChangesThere() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        try place.write(Self.recipe, "s.md")
        for device in ["a", "b", "a"] { try place.open(device).record() }
        let a = try place.open("a")
        func published() throws -> [Substring] {
            try String(contentsOfFile: place.folder + "/.folio/logs/" + a.deviceName + ".log", encoding: .utf8).split(separator: "\n")
        }
        #expect(try published() == [])
        try place.save([SharedFolderTests.recipe([("time: 15m", "time: 20m")])], on: "a")
        // The edit, and the sighting it was made from; s.md, only seen, stays out.
        #expect(try published().map { $0.split(separator: "\t")[2] } == ["edit", "edit"])
        #expect(try published().allSatisfy { $0.split(separator: "\t")[5] == "r.md" })
        // The phone, which took the edit, publishes the arrival (its first sighting goes
        // out with it, and is compacted away at once: both devices hold the edit).
        try place.open("b").record()
        let phone = try place.open("b")
        #expect(phone.historyEvents(at: "r.md").filter { $0.id.device == phone.deviceName }.map(\.kind) == [.arrival])
        #expect(phone.historyEvents(at: "s.md").map(\.id.device) == [phone.deviceName])
    }

    /// A device that logged nothing at a file holds what it first saw there: the others'
    /// compaction keeps that version, so its late edit still folds against it.
    @Test func whatASilentDeviceHoldsIsKeptAsABase() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        let laptop = SharedFolderTests.recipe([("time: 15m", "time: 20m")])
        let tablet = SharedFolderTests.recipe([("servings: 4", "servings: 6")])
        try place.write(Self.recipe, "r.md")
        for device in ["a", "b", "c", "a", "b"] { try place.open(device).record() }
        // The laptop edits; the phone takes it; the tablet, offline, hears nothing.
        try place.save([laptop], on: "a")
        try place.open("b").record()
        try place.open("a").pruneHistory()
        // The tablet edits what it first saw; Syncthing keeps the laptop's version and makes the tablet's a copy.
        try place.save([tablet], on: "c")
        try place.write(laptop, "r.md")
        try place.write(tablet, Self.copyName)
        let report = try place.open("a").fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .history)], "\(report)")
        #expect(place.read("r.md") == SharedFolderTests.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
    }

    /// A version published for a device that logged nothing at its path is pruned at the
    /// next record after that device's log shows it moved past it, not only after more
    /// edits here.
    @Test func aPublishedVersionGoesOnceTheSilentDeviceMovesPastIt() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        for device in ["a", "b"] { try place.open(device).record() }
        let laptop = try place.open("a")
        try laptop.record()
        try place.write(SharedFolderTests.recipe([("time: 15m", "time: 20m")]), "r.md")
        try laptop.record()
        func published() -> [String]? { place.listing(".folio/versions/" + laptop.deviceName) }
        // The phone logged nothing at r.md: it holds the first version, which goes out.
        #expect(published() == [SHA256.hash(Array(Self.recipe.utf8)).description])
        try laptop.record()
        #expect(published()?.count == 1)
        // The phone takes the edit; the laptop's next record prunes what it published.
        try place.open("b").record()
        try laptop.record()
        #expect(published() == [])
    }

    @Test func aLinePublishedLateStillGoesInItsDevicesOrder() {
        let hash = SHA256.hash(Array("x".utf8))
        func event(_ sequence: Int, _ parents: [Int] = []) -> VersionEvent {
            VersionEvent(id: .init(device: "a", sequence: sequence), time: Int64(sequence), kind: .edit,
                         parents: parents.map { .init(device: "a", sequence: $0) }, version: hash, path: "r.md")
        }
        let graph = VersionGraph([event(4, [1]), event(1)])
        #expect(graph.events(device: "a", path: "r.md").map(\.id.sequence) == [1, 4])
        #expect(graph.latest(device: "a", path: "r.md")?.id.sequence == 4)
    }

    @Test func aCopyNoLogNamesWaitsForTheLogsThenFoldsAgainstThisDevicesPast() throws {
        let place = try Place(shared: true)
        defer { place.remove() }
        let mine = SharedFolderTests.recipe([("time: 15m", "time: 20m")])
        try place.save([Self.recipe], on: "a")
        // The phone runs Folio too (its log is there), but the copy comes from a device that does not.
        try place.open("b").record()
        try place.save([mine], on: "a")
        try place.write(SharedFolderTests.recipe([("servings: 4", "servings: 6")]), Self.copyName)
        func fold(waiting: Duration) throws -> FoldReport {
            var options = FoldOptions()
            options.stateDirectory = place.state(of: "a")
            options.quietPeriod = .zero
            options.useGit = false
            options.historyWait = waiting
            return try SharedFolder(place.folder, options: options).fold()
        }
        #expect(try fold(waiting: .seconds(60)).waiting == [Self.copyName])
        let report = try fold(waiting: .zero)
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .history)], "\(report)")
        #expect(place.read("r.md") == SharedFolderTests.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
    }
    /// On a full disk a version whose content cannot be kept is not recorded at all (no
    /// line naming content that is not there): it is recorded once there is room.
    @Test func aVersionThatCannotBeKeptOnAFullDiskIsRecordedOnceThereIsRoom() throws {
        let place = try Place(shared: false)
        defer { place.remove() }
        try place.save([Self.recipe])
        let edited = SharedFolderTests.recipe([("time: 15m", "time: 20m")])
        try place.write(edited, "r.md")
        let folder = try place.open()
        let fullDisk = FaultInjection(failure: { operation, path in
            operation == .write && path.hasSuffix("/history/bases.pack") ? ENOSPC : nil
        })
        #expect(throws: SystemError.self) { try FaultInjection.$current.withValue(fullDisk) { try folder.record() } }
        #expect(folder.history.graph.latest(device: folder.deviceName, path: "r.md")?.version == SHA256.hash(Array(Self.recipe.utf8)))
        #expect(try folder.record() == [])
        let latest = folder.history.graph.latest(device: folder.deviceName, path: "r.md")
        #expect(latest?.version == SHA256.hash(Array(edited.utf8)) && latest?.kind == .edit)
        #expect(try place.open().history.contents(of: SHA256.hash(Array(edited.utf8))) == Array(edited.utf8))
    }
}
