import Foundation
import FolioTestSupport
import Testing
@testable import FolioStore
@testable import FolioWatch

/// Seeded random sequences of creates, edits, renames of files and of whole folders,
/// deletes and editor-style saves, applied as fast as the disk allows while the watcher
/// runs (batches land in the middle of them); after each sequence the store, settled,
/// must equal a fresh scan of the disk.
@MainActor
@Suite struct ConsistencyTests {
    nonisolated static let folders = ["", "recipes", "todos", "todos/2026", "notes/deep/er"]

    struct Run {
        let root: String
        var random: SeededRandom
        var log: [String] = []

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
            let roll = Int.random(in: 0..<100, using: &random)
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
            default:
                guard let path = pick(files) else { return }
                let editor = EditorSaveTests.Editor.allCases.randomElement(using: &random)!
                log.append("\(editor) save \(path)")
                let full = root + "/" + path
                try editor.save(in: (full as NSString).deletingLastPathComponent, name: (path as NSString).lastPathComponent, text: text())
            }
        }
    }

    @Test(arguments: 0..<8)
    func afterQuiescenceTheStoreEqualsAFreshScan(group: Int) async throws {
        let seed = SeededRandom.testSeed() &+ UInt64(group)
        var options = WatchHarness.fastOptions
        options.quietPeriod = .milliseconds([1, 5, 20][group % 3])
        let harness = try await WatchHarness(files: ["recipes/a.md": "---\ntitle: A\n---\n"], options: options)
        defer { harness.finish() }
        var run = Run(root: harness.root, random: SeededRandom(seed: seed))
        // 8 groups × 30 sequences: 240 sequences per run.
        for sequence in 0..<30 {
            run.log.removeAll()
            for _ in 0..<Int.random(in: 5...40, using: &run.random) {
                try run.step()
                if Int.random(in: 0..<10, using: &run.random) == 0 {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...3, using: &run.random)))
                }
            }
            await harness.watcher.settle()
            let disk = try harness.diskFingerprints()
            let store = harness.storeFingerprints
            #expect(store == disk, "seed \(seed) (FOLIO_SEED=\(seed &- UInt64(group)) group \(group)), sequence \(sequence): \(run.log)")
            if store != disk { return }
            harness.store.state._checkInvariants()
        }
    }
}
