import FolioTestSupport
import Testing
@testable import FolioStore
@testable import FolioSystem

/// The indexes a bulk load builds (chunks on many threads, pair tables kept per
/// chunk, ids rebased past unreadable files) answer exactly as the indexes built one
/// record at a time, and both answer as a scan of the text would.
@Suite struct StoreIndexTests {
    /// A source that cannot read some paths, so loading has to rebase chunk ids.
    struct FlakySource: ContentSource {
        let files: [String: [UInt8]]
        let unreadable: Set<String>

        func contents(of path: String) throws(SystemError) -> [UInt8] {
            if unreadable.contains(path) { throw SystemError(operation: .read, path: path, code: 5) }
            return files[path] ?? []
        }
    }

    static let vocabulary = ["uova", "Guanciale", "perché", "pepe", "sale", "olio", "aglio", "Crème", "brûlée", "pasta", "riso", "acqua", "fuoco", "lento"]

    @Test func bulkLoadAnswersAsRecordByRecordAndAsAScan() async throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        // More files than one load batch (2,048), so chunks, batches and the pipelined merge all take part.
        var files: [String: [UInt8]] = [:]
        var bodies: [String: [String]] = [:]
        for n in 0..<2_600 {
            let path = ["recipes", "todos", "notes"].randomElement(using: &random)! + "/f\(n).md"
            let words = (0..<Int.random(in: 0...40, using: &random)).map { _ in Self.vocabulary.randomElement(using: &random)! }
            let tag = Self.vocabulary.randomElement(using: &random)!.lowercased()
            files[path] = Array("---\ntitle: T\(n)\ntags: [\(tag)]\n---\n\(words.joined(separator: " "))\n".utf8)
            // The text indexed: the title, the front matter's text values (the tag: the
            // title is indexed once), then the body.
            bodies[path] = ["t\(n)", TextFolding.folded(tag)] + words.map { TextFolding.folded($0) }
        }
        let unreadable = Set(files.keys.filter { _ in Int.random(in: 0..<100, using: &random) == 0 })
        let (loaded, problems) = StoreState.load(paths: Array(files.keys), from: FlakySource(files: files, unreadable: unreadable))
        #expect(Set(problems.map(\.path)) == unreadable, "seed \(seed)")
        loaded._checkInvariants()

        // The same files one at a time, in another order, some removed and put back.
        var incremental = StoreState()
        let readable = files.keys.filter { !unreadable.contains($0) }.shuffled(using: &random)
        for (count, path) in readable.enumerated() {
            // A turn for the other suites' tasks now and then (see the queries below).
            if count % 200 == 0 { await Task.yield() }
            _ = Reducer.reduce(&incremental, .fileChanged(path: path, bytes: files[path]!))
        }
        for path in readable.prefix(300) {
            _ = Reducer.reduce(&incremental, .fileRemoved(path: path))
            _ = Reducer.reduce(&incremental, .fileChanged(path: path, bytes: files[path]!))
        }
        incremental._checkInvariants()

        // Loaded without a text index (as `folio watch DIR` loads), then edited: no word is
        // indexed, and a text query reads the files instead, with the same answers.
        var unindexed = StoreState.load(paths: Array(files.keys), from: FlakySource(files: files, unreadable: unreadable), folders: [:], keepingReads: false, indexingText: false).0
        for path in readable.suffix(300) {
            _ = Reducer.reduce(&unindexed, .fileRemoved(path: path))
            _ = Reducer.reduce(&unindexed, .fileChanged(path: path, bytes: files[path]!))
        }
        unindexed._checkInvariants()
        #expect(unindexed.index.byWord.isEmpty && unindexed.count == readable.count, "seed \(seed)")

        for round in 0..<300 {
            // A turn for the other suites' tasks between queries (a scan of every file each,
            // unindexed): the test held a thread of the cooperative pool (two here) for 40 s.
            await Task.yield()
            let length = Int.random(in: 1...3, using: &random)
            let words = (0..<length).map { _ in TextFolding.folded(Self.vocabulary.randomElement(using: &random)!) }
            let text = length == 1 && Bool.random(using: &random) ? words[0] : "\"" + words.joined(separator: " ") + "\""
            let query = try Query(parsing: text)
            let expected = readable.filter { path in
                let body = bodies[path]!
                return body.indices.contains { start in
                    start + length <= body.count && body[start..<start + length].elementsEqual(words)
                }
            }.sorted()
            // The unindexed store answers by reading and parsing every file: one query in
            // ten is asked of it (all 300 took 30 s of CPU in a debug build, which the
            // rest of the suite waited for on two cores).
            let askFiles = round % 10 == 0
            // Answered off the cooperative pool (an unindexed answer reads every file).
            let (fromLoad, fromEdits, fromFiles) = try await offThePool { [loaded, incremental, unindexed] in
                (loaded.records(matching: query).map(\.path), incremental.records(matching: query).map(\.path),
                 askFiles ? unindexed.records(matching: query).map(\.path) : nil)
            }
            #expect(fromLoad == expected, "query \(text), seed \(seed)")
            #expect(fromEdits == expected, "query \(text), seed \(seed)")
            if let fromFiles { #expect(fromFiles == expected, "query \(text), seed \(seed)") }
        }
    }

    @Test func pairTableGroupsPositionsInOrderAndDropsRepeats() {
        var table = PairTable()
        var expected: [UInt64: [UInt8]] = [:]
        // Enough distinct pairs to make the table grow several times.
        for position in 0..<200 {
            for k in 0..<40 {
                let hash = UInt64(k * 7 + position % 13 + 1) << 8
                table.insert(hash, position: UInt8(position))
                table.insert(hash, position: UInt8(position))
                if expected[hash]?.last != UInt8(position) { expected[hash, default: []].append(UInt8(position)) }
            }
        }
        table.freeze()
        #expect(table.count == expected.count)
        for (hash, positions) in expected { #expect(table.positions(of: hash) == positions) }
        #expect(table.positions(of: 0xdead_0000) == [])
    }

    /// A record's pairs inserted at once (as a load does) make the table the pairs
    /// inserted one by one make: same pairs, same positions in order, same nodes — across
    /// growths in the middle of a record, repeats within it, and an empty record.
    @Test func aRecordsPairsInsertedAtOnceMakeTheTableOneByOneMakes() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var atOnce = PairTable(), oneByOne = PairTable()
        var hashes = Set<UInt64>()
        for position in 0..<256 {
            // Some records hold hundreds of pairs (the table grows mid-record), some none.
            let count = position % 17 == 0 ? 0 : Int(random.next() % (position % 5 == 0 ? 600 : 40))
            let pairs = (0..<count).map { _ in (random.next() % 3_000 + 1) << 8 }
            hashes.formUnion(pairs)
            atOnce.insert(contentsOf: pairs, position: UInt8(position))
            for pair in pairs { oneByOne.insert(pair, position: UInt8(position)) }
        }
        atOnce.freeze()
        oneByOne.freeze()
        #expect(atOnce.count == oneByOne.count, "seed \(seed)")
        #expect(atOnce.count == hashes.count, "seed \(seed)")
        #expect(atOnce.nodeCount == oneByOne.nodeCount, "seed \(seed)")
        for hash in hashes {
            let positions = atOnce.positions(of: hash)
            #expect(positions == oneByOne.positions(of: hash), "seed \(seed), pair \(hash)")
            #expect(positions == positions.sorted() && Set(positions).count == positions.count, "seed \(seed), pair \(hash)")
        }
    }
}

/// A store that follows a folder for weeks sees many versions of each file: the index
/// must hold what the files hold now, not every version it saw.
@Suite struct StoreIndexChurnTests {
    static let words = ["soak", "alpha", "uova", "pepe", "sale", "olio", "aglio", "riso", "lento", "fuoco"]

    @Test func editsThatReturnFilesToTheirContentLeaveNoMoreEntries() throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var original: [String: [UInt8]] = [:]
        for n in 0..<1_200 {
            let body = (0..<Int.random(in: 3...30, using: &random)).map { _ in Self.words.dropFirst(2).randomElement(using: &random)! }
            original["recipes/r\(n).md"] = Array("""
                ---
                title: R\(n)
                tags: [t\(n % 7)]
                time: \(n % 50 + 5)m
                date: 2026-11-\(n % 28 + 1 < 10 ? "0" : "")\(n % 28 + 1)
                ---
                \(body.joined(separator: " "))

                """.utf8)
        }
        var state = StoreState(files: original)
        let fresh = state.index.entryCount
        var current = original
        var largest = fresh
        // Edits as `folio watch` sees them: a line added or removed again, now and then a
        // word never seen before (then taken out), a file deleted and brought back.
        for step in 0..<6_000 {
            let path = "recipes/r\(Int.random(in: 0..<1_200, using: &random)).md"
            var bytes = current[path] ?? original[path]!
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                _ = Reducer.reduce(&state, .fileRemoved(path: path))
                current[path] = nil
                continue
            case 1: bytes = original[path]! + Array("unique\(step) soak\n".utf8)
            default:
                let line = Array("soak alpha\n".utf8)
                bytes = bytes.count > line.count && Array(bytes.suffix(line.count)) == line ? Array(bytes.dropLast(line.count)) : bytes + line
            }
            current[path] = bytes
            _ = Reducer.reduce(&state, .fileChanged(path: path, bytes: bytes))
            largest = max(largest, state.index.entryCount)
        }
        state._checkInvariants()
        // Bounded while it runs: dead ids are at most as many as live ones (plus a thousand).
        #expect(largest <= fresh * 5 / 2, "the index grew to \(largest) entries from \(fresh), seed \(seed)")
        #expect(try state.records(matching: Query(parsing: "\"soak alpha\"")).map(\.path)
                == current.filter { String(decoding: $0.value, as: UTF8.self).contains("soak alpha") }.keys.sorted(), "seed \(seed)")

        for (path, bytes) in original where current[path] != bytes {
            _ = Reducer.reduce(&state, .fileChanged(path: path, bytes: bytes))
        }
        state.compact()
        state._checkInvariants()
        #expect(state.index.entryCount == fresh, "seed \(seed)")
        let reloaded = StoreState(files: original)
        for text in ["soak", "alpha", "\"uova pepe\"", "\"sale olio\"", "tag:t3", "time>30m", "date>=2026-11-20", "unique17"] {
            let query = try Query(parsing: text)
            #expect(state.records(matching: query).map(\.path) == reloaded.records(matching: query).map(\.path), "\(text), seed \(seed)")
        }
    }
}
