@testable import FolioShared
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Folding other tools' conflict copies in one shared folder, on real folders: the base
/// the lowest common ancestor in the shared history (`.folio/`), each device a state
/// folder of its own; else Syncthing's .stversions for its content, git's merge base,
/// or — with no other device keeping a history — this device's past; clashes kept once;
/// identical copies one version; guarded writes; the copy in the trash; the same bytes
/// on every device.
@Suite struct SharedFolderTests {
    static let recipe = ConflictCopyFixture.recipe
    static let copyName = ConflictCopyFixture.copyName

    static func recipe(_ changes: [(String, String)]) -> String { ConflictCopyFixture.recipe(changes) }

    /// A folder and state folders (one per device), fresh for each test.
    struct Place {
        let root: URL
        var folder: String { root.appendingPathComponent("folder").path }
        var state: String { state(of: "a") }
        func state(of device: String) -> String { root.appendingPathComponent("state-" + device).path }

        /// A fresh folder; `shared`: Syncthing's marker in it, so that the devices' logs are published in `.folio/`.
        init(shared: Bool = true) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-shared-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: root.appendingPathComponent(shared ? "folder/.stfolder" : "folder").path, withIntermediateDirectories: true)
        }

        /// What is at `path` below the folder (relative), recursively, sorted; nil when nothing is.
        func listing(_ path: String) -> [String]? {
            FileManager.default.fileExists(atPath: folder + "/" + path) ? ((try? FileManager.default.subpathsOfDirectory(atPath: folder + "/" + path)) ?? []).sorted() : nil
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

        /// Writes each of `versions` to `path` in turn, each recorded by `device` as its
        /// watcher would.
        func save(_ versions: [String], at path: String = "r.md", on device: String = "a") throws {
            for version in versions {
                try write(version, path)
                try open(device).record()
            }
        }

        /// Both devices saw the recipe; offline, the laptop (a) saved `mine` and the phone
        /// (b) `theirs`, each recorded; Syncthing kept the phone's and made the laptop's the
        /// copy `copy`.
        func clash(mine: String, theirs: String, copy: String = SharedFolderTests.copyName) throws {
            try save([SharedFolderTests.recipe], on: "a")
            try open("b").record()
            try save([mine], on: "a")
            try save([theirs], on: "b")
            try write(mine, copy)
        }

        /// The folder as `device` sees it, with no quiet period (the tests write, then fold at once).
        func open(_ device: String = "a", git: Bool = false) throws -> SharedFolder {
            var options = FoldOptions()
            options.stateDirectory = state(of: device)
            options.quietPeriod = .zero
            options.useGit = git
            return try SharedFolder(folder, options: options)
        }
    }

    /// On a full disk the fold says so, with the fix, as a write that failed (tried again,
    /// it folds once there is room), and leaves nothing in the trash per try: no copy of
    /// the file's version, no folder made for one.
    @Test(arguments: [
        ("/folder/", "cannot write r.md: No space left on device. Free some space on that disk, then fold again"),
        ("/state-a/trash/", "cannot keep the file's version in the trash in STATE: No space left on device. Free some space on that disk, then fold again"),
    ])
    func aFullDiskIsAWriteThatFailedAndLeavesNothingInTheTrashPerTry(disk: String, reason: String) throws {
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("servings: 4", "servings: 6")]))
        let fullDisk = FaultInjection(failure: { operation, path in
            operation == .write && path.contains(disk) && path.contains("r.md.folio-") ? ENOSPC : nil
        })
        let folder = try place.open("a")
        let reports = FaultInjection.$current.withValue(fullDisk) { (0..<3).map { _ in folder.fold() } }
        let kept = FoldReport.Kept(copy: Self.copyName, file: "r.md", reason: reason.replacingOccurrences(of: "STATE", with: place.state), writeFailed: true)
        for report in reports {
            #expect(report.folded.isEmpty)
            #expect(report.kept == [kept])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.state + "/trash").isEmpty)
        #expect(place.read("r.md") == Self.recipe([("servings: 4", "servings: 6")]))
        #expect(place.read(Self.copyName) == Self.recipe([("time: 15m", "time: 20m")]))
        // The disk has room again: the next try folds it.
        #expect(folder.fold().folded == [.init(copy: Self.copyName, file: "r.md", base: .history)])
        #expect(place.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
        #expect(Set(Trash(state: try RootedFolder.creating(place.state)).items().map(\.path)) == [Self.copyName, "r.md"])
    }

    @Test func aCopyIsFoldedAgainstTheLowestCommonAncestor() throws {
        let place = try Place()
        defer { place.remove() }
        // Both devices saw the recipe; offline, the laptop (a) set time 20m, the phone (b)
        // servings 6. Syncthing kept the phone's and made the laptop's a copy.
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("servings: 4", "servings: 6")]))
        let report = try place.open("a").fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .history)] && report.rescued.isEmpty && report.kept.isEmpty)
        #expect(place.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
        #expect(place.read(Self.copyName) == nil)
        // In the trash, restorable: the copy, and the file's version the fold replaced.
        #expect(Set(Trash(state: try RootedFolder.creating(place.state)).items().map(\.path)) == [Self.copyName, "r.md"])
        // The history stays out of git, and is never a record.
        #expect(place.read(".folio/.gitignore")?.contains("\n*\n") == true)
        // Any device reads every device's events: the phone sees the laptop's fold of its edit.
        let phone = try place.open("b")
        let events = phone.historyEvents(at: "r.md")
        #expect(Set(events.map(\.id.device)).count == 2 && events.filter { $0.kind == .fold }.count == 1)
        #expect(events.last { $0.kind == .fold }.map { $0.id.device != phone.deviceName && $0.parents.count == 2 } == true)
    }

    /// Every sync tool's copy, as that tool names it, is folded like Syncthing's.
    @Test(arguments: [
        "r (SFConflict anna@example.com 2026-12-04-10-10-10).md", "r_conflict-20261204-101010.md",
        "r(Conflict_anna (Web browser)_2026-12-04-10-10-10).md", "r (conflicted copy 2026-12-04 101010).md",
    ])
    func otherToolsCopiesAreFoldedToo(copy: String) throws {
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("servings: 4", "servings: 6")]), copy: copy)
        let report = try place.open("a").fold()
        #expect(report.folded == [.init(copy: copy, file: "r.md", base: .history)])
        #expect(place.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]) && place.read(copy) == nil)
    }

    /// The names a person could give a file too are copies only where `folio.yaml` says
    /// which tool syncs the folder: there they fold; elsewhere they are left alone.
    @Test(arguments: [
        ("onedrive", "r-DESKTOP-AB12CD.md"), ("icloud", "r 2.md"), ("google-drive", "r (1).md"),
        ("'{name}.conflict-*{ext}'", "r.conflict-phone.md"),
    ])
    func ambiguousCopiesFoldOnlyWhereFolioYAMLNamesTheirTool(tool: String, copy: String) throws {
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("servings: 4", "servings: 6")]), copy: copy)
        let undeclared = try place.open("a").fold()
        #expect(undeclared.folded.isEmpty && place.read(copy) != nil, "\(undeclared)")
        try place.write("conflictCopies:\n  - \(tool)\n", "folio.yaml")
        let report = try place.open("a").fold()
        #expect(report.folded == [.init(copy: copy, file: "r.md", base: .history)])
        #expect(place.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]) && place.read(copy) == nil)
    }

    @Test func theUntickIsKept() throws {
        // The reduction: done:false → priority 15 → done:true, seen by both; the
        // phone unticks while the laptop adds a due date. The untick's bytes are the
        // priority-15 version's, yet it is the phone's change, and is kept.
        let place = try Place()
        defer { place.remove() }
        let todo = "---\ntitle: Milk\ndone: false\npriority: 1\n---\n"
        let x1 = todo.replacingOccurrences(of: "priority: 1", with: "priority: 15")
        let x2 = x1.replacingOccurrences(of: "done: false", with: "done: true")
        for version in [todo, x1, x2] {
            try place.save([version], at: "t.md", on: "a")
            try place.open("b").record()
        }
        try place.save([x1], at: "t.md", on: "b")
        let due = x2.replacingOccurrences(of: "---\n\n", with: "due: 2027-01-21\n---\n").replacingOccurrences(of: "priority: 15\n---", with: "priority: 15\ndue: 2027-01-21\n---")
        try place.save([due], at: "t.md", on: "a")
        try place.write(x1, "t.sync-conflict-20261201-120000-BBBBBBB.md")
        let report = try place.open("a").fold()
        #expect(report.folded.count == 1 && report.kept.isEmpty, "\(report)")
        #expect(place.read("t.md") == "---\ntitle: Milk\ndone: false\npriority: 15\ndue: 2027-01-21\n---\n")
    }

    @Test func aKeyReEditedOnOneSideMergesWithoutAConflict() throws {
        // The note was "less salt" (seen); the laptop made it "more cumin"; the phone had
        // that and added an ingredient line. The copy descends from the file: it is taken.
        let place = try Place()
        defer { place.remove() }
        let salt = Self.recipe([("time: 15m", "time: 15m\nnote: less salt")])
        let cumin = salt.replacingOccurrences(of: "less salt", with: "more cumin")
        let added = cumin.replacingOccurrences(of: "- Water\n", with: "- Water\n- Cumin\n")
        try place.save([salt, cumin], on: "a")
        try place.open("b").record()
        try place.save([added], on: "b")
        try place.write(cumin, "r.md")
        try place.write(added, Self.copyName)
        let report = try place.open("a").fold()
        #expect(report.folded.count == 1 && report.kept.isEmpty, "\(report)")
        #expect(place.read("r.md") == added)
    }

    @Test func aClashKeepsTheCopyAndSaysWhere() throws {
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("time: 15m", "time: 25m")]))
        let report = try place.open("a").fold()
        #expect(report.folded.isEmpty)
        #expect(report.kept == [.init(copy: Self.copyName, file: "r.md", reason: "time (25m | 20m)")])
        #expect(place.read(Self.copyName) != nil && place.read("r.md")!.contains("time: 25m"))
    }

    @Test func identicalCopiesAreOneVersion() throws {
        // The losing side's copy made on two devices (the 127m beside 126m): a real
        // clash, so one copy stays — not two.
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 127m")]), theirs: Self.recipe([("time: 15m", "time: 126m")]))
        let second = "r.sync-conflict-20261201-120001-CCCCCCC.md"
        try place.write(Self.recipe([("time: 15m", "time: 127m")]), second)
        let report = try place.open("a").fold()
        #expect(report.kept == [.init(copy: Self.copyName, file: "r.md", reason: "time (126m | 127m)")])
        #expect(report.folded == [.init(copy: second, file: "r.md", base: nil, sameAs: Self.copyName)])
        #expect(place.read(Self.copyName) != nil && place.read(second) == nil)
        // Reported once: the next pass keeps the same one and finds nothing else to do.
        let again = try place.open("a").fold()
        #expect(again.kept.map(\.copy) == [Self.copyName] && again.folded.isEmpty)
    }

    @Test func copiesOfTheVersionAFoldTookAreSetAsideForTheCopyItFolded() throws {
        // The phone's edit in two copies (two sync tools'): the first folds into the file,
        // which then holds the second's bytes too — because of the first, which is named.
        let place = try Place()
        defer { place.remove() }
        let theirs = Self.recipe([("servings: 4", "servings: 6")])
        try place.save([Self.recipe], on: "a")
        try place.open("b").record()
        try place.save([theirs], on: "b")
        try place.write(Self.recipe, "r.md")
        let second = "r (conflicted copy).md"
        for copy in [Self.copyName, second] { try place.write(theirs, copy) }
        let report = try place.open("a").fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .history), .init(copy: second, file: "r.md", base: nil, sameAs: Self.copyName)])
        #expect(report.kept.isEmpty && place.read("r.md") == theirs && place.read(second) == nil)
    }

    @Test func withoutACommonAncestorTheCopyStays() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe([("time: 15m", "time: 20m")]), Self.copyName)
        try place.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        let report = try place.open().fold()
        #expect(report.kept == [.init(copy: Self.copyName, file: "r.md", reason: "no common ancestor of r.md and the copy is known")])
        #expect(place.read(Self.copyName) != nil)
    }

    @Test func withNoOtherDeviceKeepingAHistoryThisDevicesPastServes() throws {
        // Syncthing's other devices run no Folio: the laptop's own history is all there
        // is. It saved time 20m, then a new title, while the phone set servings 6 and won:
        // the base is the version both had, not the laptop's first save.
        let place = try Place()
        defer { place.remove() }
        let first = Self.recipe([("time: 15m", "time: 20m")])
        let second = first.replacingOccurrences(of: "title: Soup", with: "title: Soup Deluxe")
        try place.save([Self.recipe, first, second])
        try place.write(second, Self.copyName)
        try place.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        let report = try place.open().fold()
        #expect(report.folded.count == 1, "\(report)")
        #expect(place.read("r.md") == second.replacingOccurrences(of: "servings: 4", with: "servings: 6"))
    }

    /// What a store's load read is what the history records first, without reading the
    /// folder again: a file no read could reach now is recorded all the same, and a file
    /// an editor saved after the load has the load's version as its parent (the base of
    /// an edit made right after "watching" is what the store showed).
    @Test func whatTheLoadReadIsRecordedWithoutReadingTheFolderAgain() throws {
        let place = try Place()
        defer { place.remove() }
        let saved = Self.recipe([("time: 15m", "time: 20m")])
        try place.write(Self.recipe, "r.md")
        try place.write(Self.recipe([("Soup", "Stew")]), "notes/s.md")
        let loaded = try ["notes/s.md", "r.md"].map { path in
            let (bytes, stamp) = try FileReading.contentsAndStamp(of: RootedFolder(place.folder)[path])
            return FileRead(path: path, bytes: bytes, stamp: stamp)
        }
        try place.write(saved, "r.md")
        let folder = try place.open()
        let noReads = FaultInjection(failure: { operation, path in
            operation == .open && path.hasPrefix(place.folder + "/") && path.hasSuffix(".md") ? EIO : nil
        })
        let notYet = try FaultInjection.$current.withValue(noReads) {
            try folder.record(nil, waitingForQuiet: false, alreadyRead: loaded)
        }
        #expect(notYet.isEmpty)
        #expect(folder.historyEvents(at: "notes/s.md").map(\.version) == [SHA256.hash(Array(Self.recipe([("Soup", "Stew")]).utf8))])
        let first = try #require(folder.historyEvents(at: "r.md").first)
        #expect(first.version == SHA256.hash(Array(Self.recipe.utf8)))
        // Read from disk now: the save, an edit of what the load read.
        try folder.record()
        let events = folder.historyEvents(at: "r.md")
        #expect(events.map(\.version) == [SHA256.hash(Array(Self.recipe.utf8)), SHA256.hash(Array(saved.utf8))])
        #expect(events.last?.kind == .edit && events.last?.parents == [first.id])
    }

    /// A follower started with what a load read answers ``FoldingFollower/ready()`` once
    /// it has the folder in hand; an edit saved right after is logged after it, from it.
    @Test func anEditRightAfterReadyDescendsFromWhatTheFollowerTook() async throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        let (bytes, stamp) = try FileReading.contentsAndStamp(of: RootedFolder(place.folder)["r.md"])
        let follower = FoldingFollower(folder: try place.open()) { _ in }
        defer { follower.stop() }
        follower.start(alreadyRead: [FileRead(path: "r.md", bytes: bytes, stamp: stamp)])
        await follower.ready()
        let saved = Self.recipe([("time: 15m", "time: 20m")])
        try place.write(saved, "r.md")
        follower.changed(["r.md"])
        _ = follower.foldNow()
        let events = follower.withFolder { $0.historyEvents(at: "r.md") }
        #expect(events.map(\.version) == [SHA256.hash(Array(Self.recipe.utf8)), SHA256.hash(Array(saved.utf8))])
        #expect(events.count == 2 && events[1].kind == .edit && events[1].parents == [events[0].id])
    }

    @Test func aCopyThatAppearsAfterAOneShotFoldIsFolded() throws {
        // `folio fold` from cron, no copy at first: it records the folder, so a copy that
        // appears later has its base.
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        #expect(try place.open().fold() == FoldReport())
        try place.open().record()
        try place.write(Self.recipe([("time: 15m", "time: 20m")]), Self.copyName)
        try place.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        let folder = try place.open()
        try folder.record()
        #expect(folder.fold().folded.count == 1)
        #expect(place.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
    }

    /// Three devices clashed in one second: the laptop's edit (time 20m) lost to the phone's
    /// (servings 6); its copy (``copyName``) was then overwritten by the third device's
    /// loser (same copy name), each recorded by the laptop. The graph proves the laptop's
    /// dropped: the copy held it, then other bytes. Returns the laptop's edit.
    static func versionDroppedInAThreeWayClash(_ place: Place) throws -> String {
        let mine = recipe([("time: 15m", "time: 20m")])
        try place.save([recipe], on: "a")
        for device in ["b", "c"] { try place.open(device).record() }
        try place.save([mine], on: "a")
        try place.save([recipe([("servings: 4", "servings: 6")])], on: "b")
        try place.write(recipe, "r.md")
        try place.save([recipe([("title: Soup", "title: Soup Deluxe")])], on: "c")
        try place.write(recipe([("servings: 4", "servings: 6")]), "r.md")
        try place.write(mine, copyName)
        try place.open("a").record()
        try place.write(recipe([("title: Soup", "title: Soup Deluxe")]), copyName)
        try place.open("a").record()
        return mine
    }

    /// The three-way clash's three edits, merged.
    static let allThree = recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6"), ("title: Soup", "title: Soup Deluxe")])

    @Test func aVersionTheSyncToolDroppedIsWrittenBackAndFolded() throws {
        let place = try Place()
        defer { place.remove() }
        _ = try Self.versionDroppedInAThreeWayClash(place)
        let report = try place.open("a").fold()
        #expect(report.rescued.count == 1 && report.rescued.allSatisfy { $0.hasPrefix("r.sync-conflict-") && $0.hasSuffix("-FOLIOSV.md") })
        #expect(report.folded.count == 2 && report.kept.isEmpty, "\(report)")
        #expect(place.read("r.md") == Self.allThree)
        // Nothing is rescued again once everything is in.
        #expect(try place.open("a").fold() == FoldReport())
    }

    @Test func aRestoredCopyFoldsOnAnotherDeviceAndItsLateTwinIsNotLeftBehind() throws {
        let place = try Place()
        defer { place.remove() }
        let mine = try Self.versionDroppedInAThreeWayClash(place)
        // The laptop writes the version back; the phone folds it (and the third device's
        // copy): its version is in the graph, a restore made from the laptop's edit.
        let rescued = try place.open("a").rescueDroppedVersions([Self.copyName])
        #expect(rescued.count == 1)
        try place.open("b").record()
        let report = try place.open("b").fold()
        #expect(Set(report.folded.map(\.copy)) == Set(rescued + [Self.copyName]) && report.kept.isEmpty && report.waiting.isEmpty, "\(report)")
        #expect(place.read("r.md") == Self.allThree)
        // A copy of the same version Syncthing brings after all is the same version: on
        // every device it folds away, the file unchanged, and nothing is written back again.
        let late = "r.sync-conflict-20261201-120003-CCCCCCC.md"
        var foldedAway = FoldReport()
        foldedAway.folded = [.init(copy: late, file: "r.md", base: .history)]
        for device in ["c", "a"] {
            try place.write(mine, late)
            #expect(try place.open(device).fold() == foldedAway, "\(device)")
        }
        #expect(place.read("r.md") == Self.allThree)
    }

    @Test func aCopyRemovedByHandIsNeverRestored() throws {
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("time: 15m", "time: 25m")]))
        #expect(try place.open("a").fold().kept.count == 1)
        // The user settles the clash by removing the copy; another copy appears later.
        try FileManager.default.removeItem(atPath: place.folder + "/" + Self.copyName)
        try place.open("a").record()
        try place.write(Self.recipe([("time: 15m", "time: 25m"), ("servings: 4", "servings: 6")]), "r.sync-conflict-20261202-120000-DDDDDDD.md")
        let report = try place.open("a").fold()
        #expect(report.rescued.isEmpty, "\(report)")
    }

    @Test func syncthingVersionsHoldTheAncestorsContentWhenTheHistoryLacksIt() throws {
        let place = try Place()
        defer { place.remove() }
        try place.clash(mine: Self.recipe([("time: 15m", "time: 20m")]), theirs: Self.recipe([("servings: 4", "servings: 6")]))
        // A third device, which never saw the ancestor: its content, which the laptop
        // published when it edited it, has not arrived in .folio/versions; Syncthing kept it.
        let hex = SHA256.hash(Array(Self.recipe.utf8)).description
        // (Each device that edited it published it: each may be another's base.)
        let devices = try ["a", "b"].map { try place.open($0).deviceName }.sorted()
        #expect(place.listing(".folio/versions") == devices.flatMap { [$0, $0 + "/" + hex] })
        try FileManager.default.removeItem(atPath: place.folder + "/.folio/versions")
        try place.write(Self.recipe, ".stversions/r~20261130-100000.md")
        let report = try place.open("c").fold()
        #expect(report.folded == [.init(copy: Self.copyName, file: "r.md", base: .syncthingVersions)])
        #expect(place.read("r.md")!.contains("time: 20m") && place.read("r.md")!.contains("servings: 6"))
    }

    @Test func gitsMergeBaseServesAsTheBase() throws {
        let place = try Place()
        defer { place.remove() }
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        func run(_ arguments: [String]) throws {
            #expect(try ExternalTool.run(git, ["-C", place.folder, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments).status == 0)
        }
        try place.write(Self.recipe, "r.md")
        try run(["init", "-q", "-b", "main"])
        try run(["add", "r.md"])
        try run(["commit", "-qm", "r"])
        try run(["checkout", "-qb", "time"])
        try place.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        try run(["commit", "-qam", "time"])
        try run(["checkout", "-q", "main"])
        try place.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        try run(["commit", "-qam", "servings"])
        try place.write(Self.recipe([("time: 15m", "time: 20m")]), "r (Anna's conflicted copy 2026-11-30).md")
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
        try place.write(Self.recipe([("time: 15m", "time: 20m")]), Self.copyName)
        try place.write(Self.recipe([("## Steps", "- Salt\n\n## Steps")]), copyOfCopy)
        try place.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        let report = try place.open().fold()
        #expect(report.folded.count == 2 && report.kept.isEmpty, "\(report)")
        let merged = place.read("r.md")!
        #expect(merged.contains("time: 20m") && merged.contains("servings: 6") && merged.contains("- Salt"))
        #expect(place.read(Self.copyName) == nil && place.read(copyOfCopy) == nil)
    }

    @Test func aCopyTheSyncToolIsStillWritingWaits() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.recipe, "r.md")
        try place.open().record()
        try place.write(Self.recipe([("time: 15m", "time: 20m")]), Self.copyName)
        try place.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        var quiet = FoldOptions()
        quiet.stateDirectory = place.state
        quiet.quietPeriod = .milliseconds(800)
        quiet.useGit = false
        // The file and its copy are left alone for the quiet period while the tool keeps
        // writing its temporary file: their change times must be that far apart, and a
        // change time cannot be set, so the test waits (no clock can move it).
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
        // 0.9 s on, by a clock the test moves (started after the last write): every file
        // has been left alone for the quiet period.
        try place.write("partial", ".syncthing.r.md.tmp")
        let clock = ManualClock()
        quiet.clock = clock
        clock.advance(by: .milliseconds(900))
        #expect(try SharedFolder(place.folder, options: quiet).fold().folded.count == 1)
    }

    @Test func everyDeviceWritesTheSameBytes() throws {
        // Two devices' folders, the shared history carried between them as Syncthing
        // would: each folds the same copy into the same file, and both write the same bytes.
        let laptop = try Place(), phone = try Place()
        defer {
            laptop.remove()
            phone.remove()
        }
        let mine = Self.recipe([("time: 15m", "time: 20m")])
        let theirs = Self.recipe([("## Steps", "- Salt\n\n## Steps"), ("servings: 4", "servings: 6")])
        try laptop.save([Self.recipe], on: "a")
        try laptop.open("b").record()
        try laptop.save([mine], on: "a")
        try laptop.save([theirs], on: "b")
        try FileManager.default.copyItem(atPath: laptop.folder + "/.folio", toPath: phone.folder + "/.folio")
        for place in [laptop, phone] {
            try place.write(theirs, "r.md")
            try place.write(mine, Self.copyName)
        }
        #expect(try laptop.open("a").fold().folded.count == 1)
        #expect(try phone.open("b").fold().folded.count == 1)
        #expect(laptop.read("r.md") == phone.read("r.md"))
        #expect(laptop.read("r.md")!.contains("time: 20m") && laptop.read("r.md")!.contains("- Salt"))
    }

    @Test func aLongRunningFollowerKeepsItsHistoryWithinItsLimits() throws {
        let place = try Place()
        defer { place.remove() }
        let folder = try place.open()
        // Far more versions of one file than anyone needs, recorded one at a time as
        // `folio watch` does, with no process start in between to compact.
        for n in 0..<1_500 {
            try place.write(Self.recipe([("servings: 4", "servings: \(n)")]), "r.md")
            try folder.record(["r.md"])
        }
        func size(_ name: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: place.state + "/history/" + name)[.size] as? Int ?? 0 }
        let log = try size("log")
        let pack = try FileManager.default.contentsOfDirectory(atPath: place.state + "/history").filter { $0.hasSuffix(".pack") }
        let packed = try pack.reduce(0) { try $0 + size($1) }
        // Compaction waits for the log to grow by half (and 64 KiB), so some superseded versions may wait too.
        #expect(log < 160 << 10, "the log is \(log) bytes")
        #expect(packed < 1_000 * Self.recipe.utf8.count, "\(packed) bytes of versions kept in \(pack)")
        // With no other device, no version is one another device may need: none is published.
        #expect(place.listing(".folio/versions") == nil)
        let last = folder.history.graph.latest(device: folder.history.device, path: "r.md")?.version
        #expect(last.flatMap { folder.history.contents(of: $0) }.map { String(decoding: $0, as: UTF8.self).contains("servings: 1499") } == true)
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
