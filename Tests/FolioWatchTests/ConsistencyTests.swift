import Foundation
import FolioTestSupport
import Testing
@testable import FolioStore
@testable import FolioWatch

/// Seeded random sequences of creates, edits (in place, slowly in place, and by
/// rename), renames and moves of files and of whole folders, a folder moved out and
/// back, file ↔ folder swaps, invalid files then fixed, touches, hard links, symbolic
/// links, NFC/NFD twins, empty files, deletes, editor-style saves and bursts past the
/// kernel's event queue, applied as fast as the disk allows while the watcher runs
/// (batches land in the middle of them), with inotify and with polling; after each
/// sequence the store, settled, must equal a fresh load of the disk: the same files,
/// the same records (title, kind, error) and the same answers to queries, and the change
/// sets announced meanwhile, replayed on their own, must add up to the records listed.
/// The seed is printed on failure; `FOLIO_SEED` replays.
@MainActor
@Suite struct ConsistencyTests {
    nonisolated static let folders = ["", "recipes", "todos", "todos/2026", "notes/deep/er"]
    /// Hard links are in the random sequences (`FOLIO_HARDLINKS=0` leaves them out): a
    /// file written through one name and that name then removed before the watcher reads
    /// it leaves no event on its other names (inotify reports the name written); the
    /// watcher knows which names are linked and reads the folder again when one goes.
    nonisolated static let hardLinks = ProcessInfo.processInfo.environment["FOLIO_HARDLINKS"] != "0"
    /// NFC/NFD twins are in the random sequences (`FOLIO_TWINS=0` leaves them out, to
    /// tell a divergence of theirs from another's). `FOLIO_TRACE=1` settles and compares
    /// after every step and prints the first step after which the store diverged.
    nonisolated static let twins = ProcessInfo.processInfo.environment["FOLIO_TWINS"] != "0"
    /// `FOLIO_GROUPS=8,9` runs only those groups (to replay one, or to repeat the polling ones).
    nonisolated static let groups = ProcessInfo.processInfo.environment["FOLIO_GROUPS"].map { Set($0.split(separator: ",").compactMap { Int($0) }) }

    struct Run: Sendable {
        let root: String
        var random: SeededRandom
        var log: [String] = [] {
            didSet { if let line = log.last, log.count > oldValue.count { trace?.add("step " + TraceBox.escaped(line)) } }
        }
        var trace: TraceBox?

        func files() -> [String] {
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".md") }.sorted()
        }

        func folders() -> [String] {
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isFolder) && isFolder.boolValue
            }.sorted()
        }

        mutating func text() -> String {
            let n = Int.random(in: 0..<1_000_000, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return "---\ntitle: T\(n)\ndone: false\n---\nbody \(n)\n"
            case 1: return "plain note \(n)\n"
            case 2: return "---\ntitle: \"broken \(n)\n---\n"
            default: return ""
            }
        }

        mutating func step() throws {
            let fm = FileManager.default
            let files = files()
            let roll = Int.random(in: 0..<128, using: &random)
            func pick(_ list: [String]) -> String? { list.isEmpty ? nil : list.randomElement(using: &random) }
            switch roll {
            case 0..<25:
                let folder = ConsistencyTests.folders.randomElement(using: &random)!
                let path = (folder.isEmpty ? "" : folder + "/") + "f\(Int.random(in: 0..<40, using: &random)).md"
                log.append("write \(path)")
                try WatchHarness.write(text(), to: root + "/" + path)
            case 25..<40:
                guard let path = pick(files) else { return }
                log.append("append \(path)")
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/" + path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("more\n".utf8))
                try handle.close()
            case 40..<55:
                guard let path = pick(files) else { return }
                let folder = ConsistencyTests.folders.randomElement(using: &random)!
                let target = (folder.isEmpty ? "" : folder + "/") + "m\(Int.random(in: 0..<40, using: &random)).md"
                log.append("rename \(path) → \(target)")
                try fm.createDirectory(atPath: root + "/" + (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                guard rename(root + "/" + path, root + "/" + target) == 0 else { return }
            case 55..<65:
                guard let path = pick(files) else { return }
                log.append("delete \(path)")
                try fm.removeItem(atPath: root + "/" + path)
            case 65..<75:
                guard let folder = pick(folders()) else { return }
                let target = "moved\(Int.random(in: 0..<5, using: &random))"
                guard !folder.hasPrefix(target), !fm.fileExists(atPath: root + "/" + target) else { return }
                log.append("rename folder \(folder) → \(target)")
                guard rename(root + "/" + folder, root + "/" + target) == 0 else { return }
            case 75..<80:
                guard let folder = pick(folders()) else { return }
                log.append("delete folder \(folder)")
                try fm.removeItem(atPath: root + "/" + folder)
            case 80..<85:
                // A new folder filled at once: files may land before its watch exists.
                let folder = "burst\(Int.random(in: 0..<3, using: &random))/inner"
                log.append("burst \(folder)")
                for n in 0..<5 { try WatchHarness.write(text(), to: root + "/\(folder)/b\(n).md") }
            case 85..<90:
                // A folder moved out of the tree and back in elsewhere.
                guard let folder = pick(folders().filter { !$0.contains("/") }) else { return }
                let outside = root + ".outside"
                log.append("out and back \(folder)")
                guard rename(root + "/" + folder, outside) == 0 else { return }
                _ = rename(outside, root + "/back\(Int.random(in: 0..<3, using: &random))")
                try? fm.removeItem(atPath: outside)
            case 100..<104:
                // Written slowly in place: the file open across two writes.
                guard let path = pick(files), let handle = FileHandle(forWritingAtPath: root + "/" + path) else { return }
                log.append("slow write \(path)")
                let bytes = Data(text().utf8)
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
                Thread.sleep(forTimeInterval: 0.004)
                try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
                try handle.close()
            case 104..<108:
                // A file becomes a folder of the same name, or a folder a file.
                if Bool.random(using: &random), let path = pick(files) {
                    log.append("file to folder \(path)")
                    try fm.removeItem(atPath: root + "/" + path)
                    try WatchHarness.write(text(), to: root + "/" + path + "/inside.md")
                } else if let folder = pick(folders().filter { $0.hasSuffix(".md") || !$0.contains("/") }) {
                    log.append("folder to file \(folder)")
                    try fm.removeItem(atPath: root + "/" + folder)
                    try WatchHarness.write(text(), to: root + "/" + folder)
                }
            case 108..<111:
                guard let path = pick(files) else { return }
                log.append("touch \(path)")
                try fm.setAttributes([.modificationDate: Date()], ofItemAtPath: root + "/" + path)
            case 111..<114:
                // A hard link: later writes through one name must reach the others (see ``hardLinks``).
                guard ConsistencyTests.hardLinks, let path = pick(files) else { return }
                let name = "hard\(Int.random(in: 0..<4, using: &random)).md"
                let folder = (path as NSString).deletingLastPathComponent
                let target = folder.isEmpty ? name : folder + "/" + name
                guard !fm.fileExists(atPath: root + "/" + target) else { return }
                log.append("hard link \(path) as \(target)")
                try fm.linkItem(atPath: root + "/" + path, toPath: root + "/" + target)
            case 114..<117:
                guard let path = pick(files) else { return }
                let target = "link\(Int.random(in: 0..<4, using: &random)).md"
                guard (try? fm.destinationOfSymbolicLink(atPath: root + "/" + target)) == nil, !fm.fileExists(atPath: root + "/" + target) else { return }
                log.append("symlink \(target) → \(path)")
                try fm.createSymbolicLink(atPath: root + "/" + target, withDestinationPath: root + "/" + path)
            case 117..<121:
                // The NFC and NFD spellings of one name, one or both (see ``twins``).
                guard ConsistencyTests.twins else { return }
                let folder = ConsistencyTests.folders.randomElement(using: &random)!
                let spelling = ["caf\u{E9}.md", "cafe\u{301}.md"].randomElement(using: &random)!
                let path = (folder.isEmpty ? "" : folder + "/") + spelling
                log.append("twin \(path.unicodeScalars.map { $0.value < 0x80 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined())")
                try WatchHarness.write(text(), to: root + "/" + path)
            case 121..<124:
                // An invalid file fixed.
                guard let path = pick(files.filter { (try? String(contentsOfFile: root + "/" + $0, encoding: .utf8))?.contains("\"broken") == true }) else { return }
                log.append("fix \(path)")
                try WatchHarness.write("---\ntitle: fixed\n---\n", to: root + "/" + path)
            default:
                guard let path = pick(files) else { return }
                let editor = EditorSaveTests.Editor.allCases.randomElement(using: &random)!
                log.append("\(editor) save \(path)")
                let full = root + "/" + path
                try editor.save(in: (full as NSString).deletingLastPathComponent, name: (path as NSString).lastPathComponent, text: text())
            }
        }
    }

    /// More events than the kernel's queue holds (`fs.inotify.max_queued_events`), made
    /// while the watcher reads none, in a folder it watches already (events in a folder
    /// not yet watched are never queued): files made there, most removed again. Only a
    /// rescan after the overflow can find what is left. Returns what it did, for the log.
    nonisolated static func burstPastTheQueue(in root: String, folder: String, random: inout SeededRandom) throws -> String {
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16_384
        // A file written gives three events (made, modified, closed), one removed one more.
        let count = limit / 4 + 200
        for n in 0..<count { try WatchHarness.write("---\ntitle: O\(n)\n---\n", to: "\(root)/\(folder)/o\(n).md") }
        let kept = Set((0..<5).map { _ in Int.random(in: 0..<count, using: &random) })
        for n in 0..<count where !kept.contains(n) { try FileManager.default.removeItem(atPath: "\(root)/\(folder)/o\(n).md") }
        return "burst past the queue: \(count) files in \(folder), kept \(kept.sorted())"
    }

    /// A folder for ``burstPastTheQueue(in:folder:random:)``, made if needed, or nil when
    /// a step left files where it would be.
    static func folderForBurst(in root: String, random: inout SeededRandom) -> String? {
        let folder = "overflow\(Int.random(in: 0..<3, using: &random))"
        return (try? FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)) != nil ? folder : nil
    }

    /// The paths a listener knows, rebuilt from the change sets alone (as an app's view
    /// is): each set must fit what the view held (no record added twice, none removed,
    /// updated or moved that it did not hold). Paths as bytes: NFC and NFD differ.
    struct ReplayedView {
        var paths: Set<[UInt8]>
        var problems: [String] = []

        mutating func apply(_ changes: ChangeSet) {
            let key = { (path: String) in Array(path.utf8) }
            let gone = changes.removed.map(key) + changes.moved.map { key($0.from) }
            for path in gone where !paths.contains(path) { problems.append("\(String(decoding: path, as: UTF8.self)) removed or moved away but not in the view: \(changes)") }
            paths.subtract(gone)
            let new = changes.added.map(key) + changes.moved.map { key($0.to) }
            for path in new where paths.contains(path) { problems.append("\(String(decoding: path, as: UTF8.self)) added or moved in but already in the view: \(changes)") }
            paths.formUnion(new)
            for path in changes.updated where !paths.contains(key(path)) { problems.append("\(path) updated but not in the view: \(changes)") }
        }
    }

    /// What a fresh load holds, record by record, and its answers to a few queries.
    static func view(of state: StoreState) -> [String] {
        let records = state.records.values.map { record in
            "\(record.path)|\(record.title)|\(record.isValid ? record.kind.rawValue : "invalid")|\(record.error.map { "\($0.message)" } ?? "")"
        }.sorted()
        let queries = ["kind:note", "kind:todo", "done:false", "body", "title:fixed"].map { text in
            "\(text) → " + ((try? state.records(matching: Query(parsing: text)))?.map(\.path).sorted().joined(separator: ",") ?? "?")
        }
        return records + queries
    }

    /// The watcher's recent batches, reads and change sets among the test's steps.
    static func printTrace(_ harness: WatchHarness) {
        print("TRACE of \(harness.root):\n" + harness.trace.tail(400).joined(separator: "\n"))
    }

    @Test(arguments: 0..<10)
    func afterQuiescenceTheStoreEqualsAFreshScan(group: Int) async throws {
        if let groups = Self.groups, !groups.contains(group) { return }
        let seed = SeededRandom.testSeed() &+ UInt64(group)
        var options = WatchHarness.fastOptions
        options.quietPeriod = .milliseconds([1, 5, 20][group % 3])
        // Groups 8 and 9 poll (a stat pass every 50 ms) instead of inotify.
        if group >= 8 { options.backend = .polling(interval: .milliseconds(50)) }
        let harness = try await WatchHarness(files: ["recipes/a.md": "---\ntitle: A\n---\n"], options: options)
        defer { harness.finish() }
        var run = Run(root: harness.root, random: SeededRandom(seed: seed), trace: harness.trace)
        await harness.drainChanges()
        var view = ReplayedView(paths: Set(harness.store.state.records.keys.map { Array($0.utf8) }))
        var seen = harness.changeSets.count
        var overflows = 0
        // 10 groups × 30 sequences: 300 sequences per run (240 with inotify, 60 polling).
        for sequence in 0..<30 {
            run.log.removeAll()
            harness.trace.add("sequence \(sequence)")
            let steps = Int.random(in: 5...40, using: &run.random)
            // Three sequences in each group overflow the kernel's event queue once.
            let burstAt = sequence % 10 == 5 ? Int.random(in: 0..<steps, using: &run.random) : nil
            for step in 0..<steps {
                if step == burstAt, let folder = Self.folderForBurst(in: harness.root, random: &run.random) {
                    // Watched first: the burst's events must be queued to overflow the queue.
                    await harness.watcher.settle()
                    // Four thousand files made and removed: off the main actor too.
                    let (watcher, root) = (harness.watcher, harness.root)
                    run = try await offThePool { [run] in
                        var next = run
                        watcher.withEventsQueued {
                            next.log.append((try? Self.burstPastTheQueue(in: root, folder: folder, random: &next.random)) ?? "burst in \(folder) cut short")
                        }
                        return next
                    }
                }
                // A step the folder as it is now cannot take (a file where a folder was) is skipped.
                // Taken off the main actor, which needs no part of it: the watcher's batches
                // (and every other suite's) are applied there meanwhile. Holding it for the
                // steps and the scans below, 300 sequences long, starved HardLinkTests' waits
                // for up to 9 s in the full suite.
                run = try await offThePool { [run] in
                    var next = run
                    try? next.step()
                    return next
                }
                if ProcessInfo.processInfo.environment["FOLIO_TRACE"] != nil {
                    await harness.watcher.settle()
                    let (s, d) = (harness.storeFingerprints, try harness.diskFingerprints())
                    if s != d {
                        let keys = Set(s.keys).union(d.keys).filter { s[$0] != d[$0] }.map { "\($0) store:\(s[$0] != nil) disk:\(d[$0] != nil)" }
                        print("TRACE diverged after \(run.log.suffix(3)): \(keys)")
                        let paths = Set(s.keys).union(d.keys).filter { s[$0] != d[$0] }
                        let snap = DiskSnapshot.read(paths, under: harness.store.folder)
                        print("TRACE snapshot \(snap.entries.map { "\(Array($0.key.utf8).count) \($0.value)" }) actions \(harness.store.state.actions(toMatch: snap)) stored \(harness.store.state.records.keys.filter { paths.contains($0) }.map { Array($0.utf8).count })")
                    }
                }
                if Int.random(in: 0..<10, using: &run.random) == 0 {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...3, using: &run.random)))
                }
            }
            harness.trace.add("settling")
            await harness.watcher.settle()
            let drained = await harness.drainChanges()
            harness.trace.add("settled")
            #expect(drained, "seed \(seed) (FOLIO_SEED=\(seed &- UInt64(group)) group \(group)), sequence \(sequence): the listener got \(harness.changeSets.count) change sets of the \(harness.store.changeSetsTold) told, in five minutes")
            for changes in harness.changeSets[seen...] { view.apply(changes) }
            seen = harness.changeSets.count
            overflows = harness.warningsSeen.filter { $0.contains("overflowed") }.count
            let root = harness.root
            let (disk, fresh) = try await offThePool { (try WatchHarness.diskFingerprints(of: root), try FolderScan.read(root).0) }
            let store = harness.storeFingerprints
            let differing = Set(store.keys).union(disk.keys).filter { store[$0] != disk[$0] }.sorted().map { path in
                let folder = harness.root + "/" + (path as NSString).deletingLastPathComponent
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
                    .map { $0.unicodeScalars.map { $0.value < 0x80 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() }
                return "\(path) store:\(store[path] != nil) disk:\(disk[path] != nil) names there:\(names)"
            }
            #expect(store == disk, "seed \(seed) (FOLIO_SEED=\(seed &- UInt64(group)) group \(group)), sequence \(sequence): differing \(differing); \(run.log)")
            if store != disk { return Self.printTrace(harness) }
            let (storeView, freshView) = (Self.view(of: harness.store.state), Self.view(of: fresh))
            #expect(storeView == freshView, "seed \(seed) (FOLIO_SEED=\(seed &- UInt64(group)) group \(group)), sequence \(sequence): \(run.log)")
            if storeView != freshView { return Self.printTrace(harness) }
            let listed = Set(fresh.records.keys.map { Array($0.utf8) })
            #expect(view.problems.isEmpty && view.paths == listed,
                    "seed \(seed) (FOLIO_SEED=\(seed &- UInt64(group)) group \(group)), sequence \(sequence): the change sets do not add up to what changed: \(view.problems.prefix(3)); missing from the view \(listed.subtracting(view.paths).map { String(decoding: $0, as: UTF8.self) }), extra \(view.paths.subtracting(listed).map { String(decoding: $0, as: UTF8.self) }); \(run.log)")
            if !view.problems.isEmpty || view.paths != listed { return Self.printTrace(harness) }
            harness.store.state._checkInvariants()
        }
        // The bursts did overflow the kernel's queue (polling has none).
        if group < 8 { #expect(overflows >= 1, "seed \(seed): no burst overflowed the inotify queue") }
    }
}
