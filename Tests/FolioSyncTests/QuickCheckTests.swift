import FolioFolder
@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// A one-off sync that finds the replicas as the archive recorded them answers from the
/// stamp index without reading the archive; anything a whole sync would make something
/// of sends it the whole way.
@Suite struct QuickCheckTests {
    /// The engine the hinted-sync tests use (random removals may empty a small replica).
    func engine(_ replicas: Replicas, dryRun: Bool = false) throws -> SyncEngine {
        try HintedSyncTests().engine(replicas, dryRun: dryRun)
    }

    func quick(_ replicas: Replicas, dryRun: Bool = false) throws -> SyncReport? {
        var memory = SyncMemory.none
        return try engine(replicas, dryRun: dryRun).quickCheck(memory: &memory)
    }

    /// Replicas with notes in folders, an empty folder and an executable, synced once.
    func synced() throws -> Replicas {
        let replicas = try Replicas()
        try replicas.write("---\ntitle: Soup\n---\nStir.\n", "recipes/soup.md", in: .a)
        try replicas.write("Milk\n", "todo/shopping.md", in: .b)
        try replicas.write("#!/bin/sh\n", "tools/run.sh", in: .a)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: replicas.path(.a, "tools/run.sh"))
        try FileManager.default.createDirectory(atPath: replicas.path(.b, "empty"), withIntermediateDirectories: true)
        _ = try replicas.sync()
        // Seen in full runs under load, never alone: the quick check declined right after
        // a sync. One cause is found and mended — the state's lock stayed held by a copy
        // of its descriptor in a program another test was starting (StateLockTests), so
        // the quick check, which takes the lock without waiting, gave up. Should another
        // cause remain, a second sync with nothing to do writes the index again; the
        // cases below are about what a change does, from an index that answers.
        if try quick(replicas) == nil { _ = try replicas.sync() }
        return replicas
    }

    @Test func aSyncAfterASyncIsAnsweredFromTheIndex() throws {
        let replicas = try synced()
        defer { replicas.remove() }
        #expect(FileManager.default.fileExists(atPath: replicas.state + "/" + StampIndex.fileName))
        let index = replicas.state + "/" + StampIndex.fileName
        let written = try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date
        var memory = SyncMemory.none
        let report = try #require(try engine(replicas).quickCheck(memory: &memory))
        #expect(report.files == 3 && report.hashed == 0 && report.copies.isEmpty)
        #expect(memory.stampIndexIsCurrent)
        #expect(try #require(try quick(replicas, dryRun: true)).files == 3)
        // What run() returns is that answer; nothing in the state folder is written for it.
        #expect(try engine(replicas).run().files == 3)
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date == written)
    }

    /// Each change, made to freshly synced replicas, and what the whole sync then does.
    static let changes: [(String, @Sendable (Replicas) throws -> Void)] = [
        ("an edit", { try $0.write("---\ntitle: Soup\n---\nStir well.\n", "recipes/soup.md", in: .b) }),
        ("a new file", { try $0.write("new\n", "recipes/new.md", in: .a) }),
        ("a deletion", { try FileManager.default.removeItem(atPath: $0.path(.b, "todo/shopping.md")) }),
        ("a touch", { try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000)], ofItemAtPath: $0.path(.a, "recipes/soup.md")) }),
        ("a chmod", { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: $0.path(.b, "tools/run.sh")) }),
        ("a new empty folder", { try FileManager.default.createDirectory(atPath: $0.path(.a, "later"), withIntermediateDirectories: true) }),
        ("an empty folder removed", { try FileManager.default.removeItem(atPath: $0.path(.a, "empty")) }),
        ("a file where a folder was", { try FileManager.default.removeItem(atPath: $0.path(.b, "empty")); try $0.write("x\n", "empty", in: .b) }),
        ("a symbolic link", { try FileManager.default.createSymbolicLink(atPath: $0.path(.a, "link.md"), withDestinationPath: "recipes/soup.md") }),
        ("a conflict copy", { try $0.write("other\n", "recipes/soup.sync-conflict-20261130-120000-ABCDEF1.md", in: .b) }),
        ("a temporary of Folio's", { try $0.write("half\n", "recipes/.soup.md.folio-12345-0.tmp", in: .a) }),
        ("a name in NFD", { try $0.write("accent\n", "cafe\u{301}.md", in: .a) }),
        ("a rule file changed", { try $0.write("*.sh\n", ".folioignore", in: .a) }),
        ("a run left listed", { try "4242\n".write(toFile: $0.state + "/runs", atomically: true, encoding: .utf8) }),
    ]

    /// What the quick look names for each change of ``changes``: the paths a scoped
    /// pass scans, or nil for the changes only a whole scan makes something of.
    static let findings: [String: [String]?] = [
        "an edit": ["recipes/soup.md"], "a new file": ["recipes/new.md"], "a deletion": ["todo/shopping.md"],
        "a touch": ["recipes/soup.md"], "a chmod": ["tools/run.sh"], "a new empty folder": ["later"],
        "an empty folder removed": ["empty"], "a file where a folder was": ["empty"], "a symbolic link": ["link.md"],
        "a conflict copy": nil, "a temporary of Folio's": nil, "a name in NFD": nil, "a rule file changed": nil, "a run left listed": nil,
    ]

    @Test(arguments: 0..<changes.count) func eachChangeIsNamedOrSendsTheSyncTheWholeWay(change: Int) throws {
        let (name, make) = Self.changes[change]
        let expected = try #require(Self.findings[name], "\(name): no finding expected in the table")
        let replicas = try synced()
        defer { replicas.remove() }
        #expect(try quick(replicas) != nil, "\(name): not answered quickly before the change")
        try make(replicas)
        for dryRun in [false, true] {
            var memory = SyncMemory.none
            let look = try engine(replicas, dryRun: dryRun).quickLook(memory: &memory)
            switch look {
            case .differs(let found): #expect(expected.map(Set.init) == found.paths, "\(name): found \(found.paths.sorted())")
            case .unknown: #expect(expected == nil, "\(name): sent the whole way, \(expected ?? []) expected")
            case .inStep: Issue.record("\(name): answered as in step")
            }
        }
        // The sync scoped to them ends with the replicas in step, answered quickly after
        // (a link is never synced: each look names it again, and its sync reports it).
        _ = try engine(replicas).run()
        var memory = SyncMemory.none
        switch (try engine(replicas).quickLook(memory: &memory), name) {
        case (.inStep, _): #expect(name != "a symbolic link")
        case (.differs(let found), "a symbolic link"): #expect(found.paths == ["link.md"])
        case (.differs(let found), _): #expect(expected == nil, "\(name): \(found.paths.sorted()) differ after the scoped sync")
        case (.unknown, _): #expect(expected == nil, "\(name): not in step after the scoped sync")
        }
    }

    @Test func findingsAreTrustedOnlyWithTheArchiveTheyWereFoundAgainst() throws {
        let replicas = try synced()
        defer { replicas.remove() }
        try replicas.write("---\ntitle: Soup\n---\nStir well.\n", "recipes/soup.md", in: .b)
        var memory = SyncMemory.none
        guard case .differs(let found) = try engine(replicas).quickLook(memory: &memory) else {
            Issue.record("the edit was not found")
            return
        }
        #expect(found.paths == ["recipes/soup.md"])
        // Another sync saves the archive; a file made after it is outside the old findings.
        _ = try engine(replicas).run()
        try replicas.write("late\n", "late.md", in: .a)
        var again = SyncMemory.none
        let report = try engine(replicas).runOnce(hints: nil, memory: &again, found: found)
        #expect(report.copies.map(\.description) == ["B:late.md"])
    }

    /// The archive a look read while it looked serves the pass after it, but only while
    /// it is still the archive on disk.
    @Test func theArchiveReadDuringTheLookServesOnlyWhileItIsTheOneOnDisk() throws {
        let replicas = try synced()
        defer { replicas.remove() }
        let storage = ArchiveStorage(state: try RootedFolder(replicas.state))
        var memory = SyncMemory.none
        #expect(try quick(replicas) != nil)
        try replicas.write("---\ntitle: Soup\n---\nStir well.\n", "recipes/soup.md", in: .b)
        guard case .differs = try engine(replicas).quickLook(memory: &memory) else {
            Issue.record("the edit was not found")
            return
        }
        let preloaded = try #require(memory.preloaded)
        let before = try storage.load().archive
        #expect(preloaded.archive == before)
        do {
            // (In a scope of its own: the pass holds the state folder until it ends.)
            var kept = memory
            let taken = try engine(replicas).prepare(memory: &kept)
            #expect(taken.archive == preloaded.archive && kept.preloaded == nil)
        }
        // Another sync saves the archive meanwhile: the pass reads it again.
        _ = try engine(replicas).run()
        let run = try engine(replicas).prepare(memory: &memory)
        let after = try storage.load().archive
        #expect(memory.preloaded == nil)
        #expect(run.archive != preloaded.archive && run.archive == after)
    }

    @Test func filesNoSyncCopiesAreNoChange() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("*.log\nbuild/\n", ".folioignore", in: .a)
        try replicas.write("*.log\nbuild/\n", ".folioignore", in: .b)
        try replicas.write("note\n", "note.md", in: .a)
        _ = try replicas.sync()
        #expect(try quick(replicas) != nil)
        for path in [".DS_Store", "note.md~", ".note.md.swp", "debug.log", "build/out.md", ".git/config", "Thumbs.db"] {
            try replicas.write("scratch\n", path, in: .a)
        }
        #expect(try quick(replicas)?.files == 1)
    }

    @Test func anIndexLeftBehindByAWatchersSyncIsNotTrusted() throws {
        let replicas = try synced()
        defer { replicas.remove() }
        // A watcher's sync (one that remembers) saves the archive but writes no index.
        try replicas.write("from the watcher\n", "watched.md", in: .a)
        var memory = SyncMemory()
        _ = try engine(replicas).run(hints: ["watched.md"], memory: &memory)
        #expect(try quick(replicas) == nil)
        // The next one-off sync finds nothing to copy, and leaves an index that is trusted.
        let whole = try engine(replicas).run()
        #expect(whole.copies.isEmpty && whole.files == 4)
        #expect(try quick(replicas)?.files == 4)
    }

    /// After seeded random operations on both sides: a quick answer is given only when a
    /// whole sync would do nothing; the pass scoped to what a quick look found decides as
    /// the whole pass does (both dry); after each one-off sync a quick answer is given.
    @Test func aQuickLookAnswersOrScopesExactlyAsAWholeSyncDecides() throws {
        let seed = SeededRandom.testSeed()
        let replicas = try Replicas()
        defer { replicas.remove() }
        var editor = HintedSyncTests.Editor(replicas: replicas, random: SeededRandom(seed: seed))
        for index in 0..<16 { try replicas.write("Note \(index).\n", "f\(index % 3)/note\(index).md", in: .a) }
        _ = try engine(replicas).run()
        var scoped = 0
        for round in 0..<30 {
            for _ in 0..<Int.random(in: 0...4, using: &editor.random) { _ = try editor.operate() }
            var memory = SyncMemory.none, first = SyncMemory.none, second = SyncMemory.none
            let whole = HintedSyncTests.Decisions(try engine(replicas, dryRun: true).runOnce(hints: nil, memory: &first))
            switch try engine(replicas, dryRun: true).quickLook(memory: &memory) {
            case .inStep:
                #expect(whole.doesNothing, "seed \(seed), round \(round): answered quickly, but a whole sync would do \(whole)")
            case .differs(let found):
                scoped += 1
                let part = HintedSyncTests.Decisions(try engine(replicas, dryRun: true).runOnce(hints: nil, memory: &second, found: found))
                #expect(part == whole, "seed \(seed), round \(round): scoped to \(found.paths.sorted()): \(part); whole: \(whole)")
            case .unknown: break
            }
            _ = try engine(replicas).run()
            // Names that differ only by case, and conflict copies, are left for a person: each whole sync looks at them again.
            let copies = HintedSyncTests.contents(replicas.a).keys.contains { ConflictCopies.original(of: $0) != nil }
            if !HintedSyncTests.hasCaseTwins(replicas) && !copies {
                #expect(try quick(replicas) != nil, "seed \(seed), round \(round): not answered quickly right after a sync")
            }
        }
        #expect(scoped >= 10, "seed \(seed): only \(scoped) of 30 rounds were scoped")
    }

}
