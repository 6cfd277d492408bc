@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// A sync of the paths a watcher named decides as a whole sync would: after seeded
/// random operations on both replicas, the hinted plan is the whole plan, and once the
/// hinted sync ran a whole sync finds nothing left to do.
@Suite struct HintedSyncTests {
    /// What a report says a sync does (or would do), conflict copies by their file
    /// (their names carry the time).
    struct Decisions: Equatable, CustomStringConvertible {
        var copies: [String], deletions: [String], merges: [String], moves: [String], folds: [String], conflicts: [String], files: Int

        init(_ report: SyncReport) {
            copies = report.copies.map(\.description).sorted()
            deletions = report.deletions.map(\.description).sorted()
            merges = report.merges.map(\.key).sorted()
            moves = report.moves.map { "\($0.replica.rawValue):\($0.from)->\($0.to)" }.sorted()
            folds = report.folds.map(\.key).sorted()
            conflicts = report.conflicts.keys.map(\.key).sorted()
            files = report.files
        }

        var doesNothing: Bool { copies.isEmpty && deletions.isEmpty && merges.isEmpty && moves.isEmpty && folds.isEmpty && conflicts.isEmpty }
        var description: String { "copies \(copies) deletions \(deletions) merges \(merges) moves \(moves) folds \(folds) conflicts \(conflicts) files \(files)" }
    }

    /// Random edits of two replicas, each naming what it touched as a watcher would.
    struct Editor {
        let replicas: Replicas
        var random: SeededRandom
        var counter = 0

        func files(_ replica: Replica) -> [String] {
            Replicas.files(under: replica == .a ? replicas.a : replicas.b).keys.filter { !$0.hasPrefix(".") }.sorted()
        }

        func folders(_ replica: Replica) -> [String] {
            Set(files(replica).compactMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } }).sorted()
        }

        mutating func name() -> String {
            counter += 1
            return "n\(counter)"
        }

        /// One random operation on one replica; returns the paths a watcher would name.
        mutating func operate() throws -> [String] {
            let replica: Replica = Bool.random(using: &random) ? .a : .b
            let root = replica == .a ? replicas.a : replicas.b
            let files = files(replica), folders = folders(replica)
            let manager = FileManager.default
            switch Int.random(in: 0..<11, using: &random) {
            case 0, 1:
                let folder = folders.randomElement(using: &random).map { $0 + "/" } ?? ""
                let path = folder + name() + ".md"
                try replicas.write("---\ntitle: \(path)\n---\nA new note.\n", path, in: replica)
                return [path]
            case 2, 3:
                guard let path = files.randomElement(using: &random) else { return [] }
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/" + path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("\nEdited on \(replica.rawValue) \(name()).\n".utf8))
                try handle.close()
                return [path]
            case 4:
                guard let path = files.randomElement(using: &random) else { return [] }
                try manager.removeItem(atPath: root + "/" + path)
                return [path]
            case 5:
                guard let path = files.randomElement(using: &random) else { return [] }
                let target = (folders.randomElement(using: &random).map { $0 + "/" } ?? "") + name() + ".md"
                try manager.moveItem(atPath: root + "/" + path, toPath: root + "/" + target)
                return [path, target]
            case 6:
                guard let folder = folders.randomElement(using: &random) else { return [] }
                try manager.removeItem(atPath: root + "/" + folder)
                return [folder]
            case 7:
                // A folder made and filled between two syncs: the watcher may name only the folder.
                let folder = (folders.randomElement(using: &random).map { $0 + "/" } ?? "") + name()
                try replicas.write("one\n", folder + "/one.md", in: replica)
                try replicas.write("two\n", folder + "/deeper/two.md", in: replica)
                return [folder]
            case 8:
                guard let folder = folders.randomElement(using: &random) else { return [] }
                let target = name()
                try manager.moveItem(atPath: root + "/" + folder, toPath: root + "/" + target)
                return [folder, target]
            case 9:
                // The same file edited on both sides: a merge or a conflict.
                guard let path = files.randomElement(using: &random), manager.fileExists(atPath: replicas.path(replica.other, path)) else { return [] }
                for side in [replica, replica.other] {
                    let old = replicas.read(path, in: side) ?? ""
                    try replicas.write(old + "\nBoth: \(side.rawValue) \(name())\n", path, in: side)
                }
                return [path]
            default:
                // A name that differs only by case from a file there.
                guard let path = files.randomElement(using: &random) else { return [] }
                let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
                let twin = String(path[..<slash]) + path[slash...].uppercased()
                guard twin != path else { return [] }
                try replicas.write("twin\n", twin, in: replica)
                return [twin]
            }
        }
    }

    func engine(_ replicas: Replicas, dryRun: Bool = false) throws -> SyncEngine {
        var options = SyncOptions()
        options.stateDirectory = replicas.state
        options.dryRun = dryRun
        // Random removals of folders empty a small replica: the guards are not what is tested.
        options.allowMassDelete = true
        return try SyncEngine(replicas.a, replicas.b, options: options)
    }

    @Test func hintedSyncsDecideAsWholeSyncsDo() throws {
        let seed = SeededRandom.testSeed()
        let replicas = try Replicas()
        defer { replicas.remove() }
        var editor = Editor(replicas: replicas, random: SeededRandom(seed: seed))
        for index in 0..<24 {
            try replicas.write("---\ntitle: Note \(index)\n---\nText \(index).\n", "f\(index % 4)/s\(index % 2)/note\(index).md", in: .a)
        }
        var memory = SyncMemory()
        _ = try engine(replicas).run(hints: nil, memory: &memory)
        #expect(memory.holdsArchive)
        for round in 0..<30 {
            var hints: Set<String> = []
            for _ in 0..<Int.random(in: 1...4, using: &editor.random) { hints.formUnion(try editor.operate()) }
            var whole = SyncMemory(), held = memory
            let expected = Decisions(try engine(replicas, dryRun: true).run(hints: nil, memory: &whole))
            let planned = Decisions(try engine(replicas, dryRun: true).run(hints: hints, memory: &held))
            #expect(planned == expected, "seed \(seed), round \(round), hints \(hints.sorted()):\nhinted \(planned)\nwhole  \(expected)")
            _ = try engine(replicas).run(hints: hints, memory: &memory)
            #expect(memory.holdsArchive)
            // The next hinted sync, hinted at nothing new, still decides as a whole one: what
            // this one left (a folder that holds a file no sync copies, names that differ only
            // by case) it looks at again.
            var after = SyncMemory(), next = memory
            let left = Decisions(try engine(replicas, dryRun: true).run(hints: nil, memory: &after))
            let leftHinted = Decisions(try engine(replicas, dryRun: true).run(hints: [], memory: &next))
            #expect(leftHinted == left, "seed \(seed), round \(round): after the hinted sync\nhinted \(leftHinted)\nwhole  \(left)")
            // With no names that differ only by case (left alone by design), nothing is left at all.
            if !Self.hasCaseTwins(replicas) {
                #expect(left.doesNothing, "seed \(seed), round \(round): a whole sync after the hinted one would still do \(left)")
            }
        }
        if !Self.hasCaseTwins(replicas) {
            #expect(Self.contents(replicas.a) == Self.contents(replicas.b), "seed \(seed): the replicas differ after the last sync")
        }
    }

    static func contents(_ folder: String) -> [String: Data] { Replicas.files(under: folder).filter { !$0.key.hasPrefix(".") } }

    static func hasCaseTwins(_ replicas: Replicas) -> Bool {
        let names = contents(replicas.a).keys.map { $0.lowercased() } + contents(replicas.b).keys.map { $0.lowercased() }
        return Set(contents(replicas.a).keys).union(contents(replicas.b).keys).count != Set(names).count
    }

    /// `replicas` with one file, synced whole: the memory holds the archive.
    func syncedOnce(_ replicas: Replicas) throws -> SyncMemory {
        try replicas.write("one\n", "one.md", in: .a)
        var memory = SyncMemory()
        _ = try engine(replicas).run(hints: nil, memory: &memory)
        return memory
    }

    @Test func aWholeSyncRunsWhenTheArchiveOnDiskIsNotTheOneHeld() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        var memory = try syncedOnce(replicas)
        // Another process syncs the pair meanwhile: its archive is on disk, not this one.
        try replicas.write("two\n", "two.md", in: .a)
        _ = try engine(replicas).run()
        try replicas.write("three\n", "three.md", in: .b)
        // Hinted at nothing, the sync still finds the new file: the held archive is stale.
        let report = try engine(replicas).run(hints: [], memory: &memory)
        #expect(report.copies.map(\.description) == ["A:three.md"])
    }

    @Test func aHintedSyncLooksOnlyAtWhatItWasGiven() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        var memory = try syncedOnce(replicas)
        try replicas.write("two\n", "two.md", in: .a)
        try replicas.write("three\n", "three.md", in: .a)
        let report = try engine(replicas).run(hints: ["two.md"], memory: &memory)
        #expect(report.copies.map(\.description) == ["B:two.md"])
        #expect(report.hashed == 1)
        // A hint that names the root is a whole sync.
        let whole = try engine(replicas).run(hints: [""], memory: &memory)
        #expect(whole.copies.map(\.description) == ["B:three.md"])
    }

    /// A conflict copy written and recorded before the merged file's own write failed is
    /// in the archive a hinted sync saves (it saves only the entries it changed, and once
    /// knew them from its report, which does not name such a copy), and counted.
    @Test func aConflictCopyRecordedBeforeTheMergedWriteFailedIsSaved() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("one\u{0}\n", "data.bin", in: .a)
        var memory = SyncMemory()
        _ = try engine(replicas).run(hints: nil, memory: &memory)
        try replicas.write("two\u{0}\n", "data.bin", in: .a)
        try replicas.write("three, longer\u{0}\n", "data.bin", in: .b)
        // Binary and edited on both sides: both kept, the other version as a copy first;
        // then the replacement of data.bin itself cannot be written.
        let failing = FaultInjection(failure: { operation, path in operation == .write && path.contains("/.data.bin.folio-") ? EIO : nil })
        let report = try FaultInjection.$current.withValue(failing) { try engine(replicas).run(hints: ["data.bin"], memory: &memory) }
        let copies = Replicas.files(under: replicas.a).keys.filter { $0.contains("sync-conflict") }
        #expect(copies.count == 1 && Set(Replicas.files(under: replicas.b).keys.filter { $0.contains("sync-conflict") }) == Set(copies))
        let saved = try engine(replicas).loadArchive()
        for copy in copies { #expect(saved.entries[SyncPath(file: copy)] != nil, "\(copy) is not in the archive saved") }
        #expect(report.files == 2)
    }
}

/// A file of replica A another reader just read (a store's watcher) is taken by the
/// pair's next sync as read, where the file still has the stamp it was read at: the
/// offered bytes, which are not on disk, are what B receives. One saved since is read.
@Suite struct OfferedReadTests {
    @Test func aFileStillAsTheWatcherReadItIsNotReadAgain() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write("first\n", "x.md", in: .a)
        var options = SyncOptions()
        options.stateDirectory = replicas.state
        let engine = try SyncEngine(replicas.a, replicas.b, options: options)
        var memory = SyncMemory()
        _ = try engine.run(hints: nil, memory: &memory)
        #expect(replicas.read("x.md", in: .b) == "first\n")
        try replicas.write("second\n", "x.md", in: .a)
        let stamp = try FileStamp.of(RootedFolder(replicas.a)["x.md"])
        memory.offer([FileRead(path: "x.md", bytes: Array("as read\n".utf8), stamp: stamp)], in: .a)
        let report = try engine.run(hints: ["x.md"], memory: &memory)
        #expect(report.copied == ["x.md"] && report.hashed == 1)
        #expect(replicas.read("x.md", in: .b) == "as read\n")
        // Saved again after that read: the stale read is not taken.
        try replicas.write("third, longer\n", "x.md", in: .a)
        memory.offer([FileRead(path: "x.md", bytes: Array("as read\n".utf8), stamp: stamp)], in: .a)
        _ = try engine.run(hints: ["x.md"], memory: &memory)
        #expect(replicas.read("x.md", in: .b) == "third, longer\n")
    }
}
