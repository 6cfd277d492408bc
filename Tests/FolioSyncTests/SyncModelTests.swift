@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Seeded random histories on two replicas — creates, field edits, body edits,
/// deletes, moves, concurrent edits of the same file, other tools' conflict copies —
/// with syncs at random points.
/// Every value ever written is a unique token; after each sync the replicas are equal,
/// every token written on either side since the last sync is still in a replica (in
/// the file or a conflict copy) or in the trash, and a second sync changes nothing.
@Suite struct SyncModelTests {
    struct History {
        let replicas: Replicas
        var random: SeededRandom
        var counter = 0
        var log: [String] = []

        mutating func token() -> String {
            counter += 1
            return "t\(counter)x"
        }

        func files(_ replica: Replica) -> [String] {
            Replicas.files(under: replica == .a ? replicas.a : replicas.b).keys.filter { !$0.contains("sync-conflict") }.sorted()
        }

        mutating func document() -> String {
            "---\ntitle: \(token())\nalpha: \(token())\nbeta: \(token())\ntags: [\(token())]\n---\n\(token())\n\n## Notes\n- \(token())\n"
        }

        mutating func step() throws {
            let replica: Replica = Bool.random(using: &random) ? .a : .b
            let existing = files(replica)
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 25 || existing.isEmpty {
                let path = ["recipes", "todos", "notes"].randomElement(using: &random)! + "/f\(Int.random(in: 0..<12, using: &random)).md"
                log.append("\(replica) create \(path)")
                try replicas.write(document(), path, in: replica)
                return
            }
            let path = existing.randomElement(using: &random)!
            let full = replicas.path(replica, path)
            guard var text = replicas.read(path, in: replica) else { return }
            switch roll {
            case 25..<50:
                // A field edit: one front-matter line.
                let key = ["title", "alpha", "beta"].randomElement(using: &random)!
                if let range = text.range(of: "\n\(key): [^\n]*", options: .regularExpression) {
                    text.replaceSubrange(range, with: "\n\(key): \(token())")
                }
                log.append("\(replica) field \(key) of \(path)")
                try replicas.write(text, path, in: replica)
            case 50..<65:
                text += "- \(token())\n"
                log.append("\(replica) body of \(path)")
                try replicas.write(text, path, in: replica)
            case 65..<78:
                log.append("\(replica) delete \(path)")
                try FileManager.default.removeItem(atPath: full)
            case 78..<82:
                // Another tool's conflict copy: a concurrent version of the file, beside it.
                guard let range = text.range(of: "\nbeta: [^\n]*", options: .regularExpression) else { return }
                text.replaceSubrange(range, with: "\nbeta: \(token())")
                let copy = String(path.dropLast(3)) + ".sync-conflict-20261130-12000\(Int.random(in: 0...9, using: &random))-ABCDEF1.md"
                guard replicas.read(copy, in: replica) == nil else { return }
                log.append("\(replica) conflict copy of \(path)")
                try replicas.write(text, copy, in: replica)
            case 82..<88:
                let target = "moved/m\(Int.random(in: 0..<6, using: &random)).md"
                guard replicas.read(target, in: replica) == nil else { return }
                log.append("\(replica) move \(path) → \(target)")
                try replicas.write(text, target, in: replica)
                try FileManager.default.removeItem(atPath: full)
            default:
                // The same file edited on both sides at once.
                guard replicas.read(path, in: replica.other) != nil else { return }
                for side in [replica, replica.other] {
                    guard var theirs = replicas.read(path, in: side),
                          let range = theirs.range(of: "\nalpha: [^\n]*", options: .regularExpression)
                    else { continue }
                    theirs.replaceSubrange(range, with: "\nalpha: \(token())")
                    try replicas.write(theirs, path, in: side)
                }
                log.append("both edit alpha of \(path)")
            }
        }

        /// Every token in a folder's files.
        static func tokens(in folder: String) -> Set<String> {
            var tokens = Set<String>()
            for data in Replicas.files(under: folder).values {
                let text = String(decoding: data, as: UTF8.self)
                var current = ""
                for character in text {
                    if character.isLetter || character.isNumber { current.append(character) } else {
                        if current.hasPrefix("t") && current.hasSuffix("x") { tokens.insert(current) }
                        current = ""
                    }
                }
            }
            return tokens
        }
    }

    /// A sync of `replicas` (mass deletes allowed), under `plan` when given, run off the
    /// cooperative pool: a sync reads and writes whole folders, and these tests run
    /// thousands while the other suites need the pool's two threads.
    static func sync(_ replicas: Replicas, under plan: FaultInjection? = nil) async throws -> SyncReport {
        try await offThePool { try FaultInjection.$current.withValue(plan) { try replicas.sync { $0.allowMassDelete = true } } }
    }

    static func check(_ history: History, seed: UInt64, before: Set<String>) async throws {
        let replicas = history.replicas
        // Folio's own temporary files, left by a killed sync, are never synced (and are not data).
        func synced(_ folder: String) -> [String: Data] {
            Replicas.files(under: folder).filter { !($0.key.contains("/.") && $0.key.contains(".folio-") && $0.key.hasSuffix(".tmp")) && !$0.key.hasPrefix(".") }
        }
        let a = synced(replicas.a), b = synced(replicas.b)
        #expect(a == b, "seed \(seed): replicas differ after sync; history: \(history.log.suffix(12))")
        let after = History.tokens(in: replicas.a).union(History.tokens(in: replicas.b)).union(History.tokens(in: replicas.state + "/trash"))
        let lost = before.subtracting(after)
        #expect(lost.isEmpty, "seed \(seed): lost \(lost.sorted()); history: \(history.log.suffix(30))")
        let again = try await sync(replicas)
        #expect(again.copied.isEmpty && again.deleted.isEmpty && again.merged.isEmpty && again.conflicts.isEmpty,
                "seed \(seed): a second sync did \(again)")
        #expect(synced(replicas.a) == a, "seed \(seed): the second sync rewrote files")
    }

    @Test(arguments: 0..<8)
    func randomHistoriesConvergeAndLoseNothing(group: Int) async throws {
        let seed = SeededRandom.testSeed() &+ UInt64(group)
        let replicas = try Replicas()
        defer { replicas.remove() }
        var history = History(replicas: replicas, random: SeededRandom(seed: seed))
        var syncs = 0
        var agreed = Set<String>()
        // 8 groups × 300 steps per run.
        for _ in 0..<300 {
            // A turn for the other suites' tasks between steps: eight groups of this, each
            // holding a thread of the cooperative pool (two here) to the end, left the main
            // actor's work and every other async test waiting for seconds.
            await Task.yield()
            try history.step()
            if Int.random(in: 0..<5, using: &history.random) == 0 {
                // What was written since the last sync (what both held then may be edited away).
                let before = History.tokens(in: replicas.a).union(History.tokens(in: replicas.b)).subtracting(agreed)
                _ = try await Self.sync(replicas)
                try await Self.check(history, seed: seed, before: before)
                history.log.append("sync")
                agreed = History.tokens(in: replicas.a)
                syncs += 1
            }
        }
        #expect(syncs > 20)
    }

    /// Counts file-system writes and fails every one after the k-th, as if the process
    /// had been killed there.
    final class Crash: @unchecked Sendable {
        // @unchecked Sendable is safe: `count` is only touched while holding `lock`.
        private let lock = NSLock()
        private var counted = 0
        let after: Int
        init(after: Int) { self.after = after }
        /// Whether the crash happened: the sync reached its `after`-th write.
        var fired: Bool { lock.withLock { counted > after } }
        /// The writes counted so far.
        var count: Int { lock.withLock { counted } }
        func fails(_ operation: SystemError.Operation) -> Bool {
            guard [.write, .rename, .unlink, .sync, .makeDirectory].contains(operation) else { return false }
            return lock.withLock {
                counted += 1
                return counted > after
            }
        }
    }

    /// How many writes, renames, removals, flushes and new folders a sync of `replicas`
    /// makes inside the replicas themselves, counted on a copy of the replicas and their
    /// state folder (a copy's files have other inodes, so it may write more to its state
    /// folder, but the same to the replicas).
    static func replicaWrites(of replicas: Replicas) throws -> Int {
        let copy = try Replicas(copying: replicas)
        defer { copy.remove() }
        let counter = Crash(after: Int.max)
        let roots = [copy.a + "/", copy.b + "/"]
        let plan = FaultInjection { operation, path in
            roots.contains { path.hasPrefix($0) } && counter.fails(operation) ? 5 : nil
        }
        _ = try FaultInjection.$current.withValue(plan) { try copy.sync { $0.allowMassDelete = true } }
        return counter.count
    }

    @Test func aSyncKilledAtAnyWriteFinishesNextTimeAndLosesNothing() async throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        // 300 crashes per run, each at a random write of a sync with work on both sides.
        var idle = 0
        for round in 0..<300 {
            // A turn for the other suites' tasks between rounds (see above).
            await Task.yield()
            let replicas = try Replicas()
            defer { replicas.remove() }
            var history = History(replicas: replicas, random: SeededRandom(seed: seed &+ UInt64(round)))
            for _ in 0..<8 { try history.step() }
            _ = try await Self.sync(replicas)
            let agreed = History.tokens(in: replicas.a)
            for _ in 0..<10 { try history.step() }
            let before = History.tokens(in: replicas.a).union(History.tokens(in: replicas.b)).subtracting(agreed)
            // The crash comes at a random one of the writes this sync makes in the replicas
            // (counted on a copy), so that it really happens: a crash point past the end
            // of a short sync would be no crash at all.
            let writes = try await offThePool { try Self.replicaWrites(of: replicas) }
            // Now and then the random edits undo each other and leave the sync nothing to
            // write: that round has no crash to inject, but must still converge.
            guard writes > 0 else {
                idle += 1
                _ = try await Self.sync(replicas)
                try await Self.check(history, seed: seed, before: before)
                continue
            }
            let crash = Crash(after: Int.random(in: 0..<max(1, writes), using: &random))
            let plan = FaultInjection { operation, _ in crash.fails(operation) ? 5 : nil }
            _ = try? await Self.sync(replicas, under: plan)
            #expect(crash.fired, "seed \(seed) round \(round): the sync ended before its write \(crash.after + 1), where it was to crash")
            // Nothing is lost by the crash itself…
            let afterCrash = History.tokens(in: replicas.a).union(History.tokens(in: replicas.b)).union(History.tokens(in: replicas.state + "/trash"))
            #expect(before.subtracting(afterCrash).isEmpty, "seed \(seed) round \(round): the crash lost \(before.subtracting(afterCrash).sorted())")
            // …and the next sync finishes the job.
            _ = try await Self.sync(replicas)
            try await Self.check(history, seed: seed, before: before)
        }
        #expect(idle <= 15, "seed \(seed): \(idle) of 300 rounds left the sync nothing to write, so fewer crashes were injected")
    }
}

extension Replicas {
    /// A copy of `other`'s replicas and state folder, in a fresh folder of its own.
    init(copying other: Replicas) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-sync-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: other.root, to: root)
    }
}
