import Foundation
import FolioFormat
import FolioMerge
import FolioSync
import FolioModel
import FolioStore
import FolioSystem
import FolioWatch

/// What `folio demo` does, one step after another, on a copy of Fixtures/.
struct Demo {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @MainActor
    func run() async throws -> Int32 {
        let fixtures = try Demo.findFixtures()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("folio-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.copyItem(at: fixtures, to: copy)
        // A temporary copy left behind is no failure of the demo; the system cleans it up.
        defer { try? FileManager.default.removeItem(at: copy) }
        Output.print("Folio demo: working on a copy of \(fixtures.path) in \(copy.path)\n")

        // 1. Check every file.
        let report = try FolderCheck.run(root: copy.path)
        let kinds = Set(report.paths.compactMap { $0.split(separator: "/").first.map(String.init) }).sorted()
        Output.print("1. folio check: read \(report.fileCount) Markdown files (\(kinds.joined(separator: ", "))): "
            + (report.problems.isEmpty ? "no problems." : "\(report.problems.count) problems:"))
        for problem in report.problems { Output.print(problem) }

        // 2. One recipe's front matter as typed JSON.
        let recipePath = copy.appendingPathComponent("recipes/pasta-alla-carbonara.md").path
        let recipe = try Document(bytes: try FileReading.contents(ofFileNamedByUser: recipePath), path: "recipes/pasta-alla-carbonara.md")
        Output.print("\n2. folio yaml recipes/pasta-alla-carbonara.md: the front matter as JSON (numbers typed, key order kept):")
        Output.print(YAMLValue.mapping(recipe.fields).json().indented())

        // 3. A minimal edit: one field, one line.
        var edited = recipe
        let oldTime = recipe["time"]?.stringValue ?? "?"
        try edited.setValue(.string("20m"), forKey: "time")
        try edited.appendItem(.string("quick"), toListForKey: "tags")
        try Data(edited.bytes).write(to: URL(fileURLWithPath: recipePath))
        let before = recipe.text.split(separator: "\n", omittingEmptySubsequences: false)
        let after = edited.text.split(separator: "\n", omittingEmptySubsequences: false)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }
        Output.print("\n3. Set time \(oldTime) → 20m and added the tag 'quick'. Lines that changed:")
        for (index, pair) in changed {
            Output.print("   line \(index + 1): - \(pair.0)\n           + \(pair.1)")
        }
        Output.print("   The other \(before.count - changed.count) lines — comments, quoting, key order, the body — are byte for byte as they were.")

        // 4. The store: the folder in memory, indexed and queryable.
        let store = try await Store.load(copy.path, removedFiles: nil)
        let counts = Dictionary(grouping: store.state.records.values, by: \.kind).sorted { $0.key < $1.key }
            .map { "\($0.value.count) \($0.key.folder)" }
        Output.print("\n4. The store holds \(counts.joined(separator: ", ")). Queries answered from its indexes:")
        for text in ["kind:recipe tag:pasta time<30m", "uova", "kind:todo done:false priority>=2 sort:date limit:3"] {
            let results = try store.query(text)
            Output.print("   folio query '\(text)' → " + results.map { "\($0.title) (\($0.path))" }.joined(separator: "; "))
        }

        // 5. Actions through the reducer, written back as files.
        await store.dispatch(.addTodo(Todo(title: "Buy guanciale", date: "2026-12-01", priority: 2)))
        let added = "todos/buy-guanciale.md"
        Output.print("\n5. dispatch(.addTodo(…)) wrote \(added):")
        Output.print(try String(contentsOfFile: copy.appendingPathComponent(added).path, encoding: .utf8)
            .trimmingCharacters(in: .newlines).indented(by: "   | "))
        let errors = await store.dispatch(.toggleDone(path: added)).errors
        for error in errors { Output.error(error.description) }
        let ticked = try String(contentsOfFile: copy.appendingPathComponent(added).path, encoding: .utf8)
        Output.print("   dispatch(.toggleDone(…)) changed one line: "
            + (ticked.split(separator: "\n").first { $0.hasPrefix("done:") }.map(String.init) ?? "?"))

        // 6. A file Folio cannot read is reported, never misread or rewritten.
        let broken = "todos/call-mum.md"
        let brokenText = "---\ntitle: \"Call mum\ndate: 2026-12-01\n---\nAsk about Sunday.\n"
        try brokenText.write(to: copy.appendingPathComponent(broken), atomically: true, encoding: .utf8)
        Output.print("\n6. A hand-edited file with a missing quote is refused with its place and a fix, not misread:")
        do {
            _ = try Document(bytes: Array(brokenText.utf8), path: broken)
            throw Failure(description: "the broken file was accepted")
        } catch let error as FormatError {
            Output.print(error.rendered.indented())
        }
        let recheck = try FolderCheck.run(root: copy.path)
        Output.print("   folio check now reports \(recheck.problems.count) problem in \(recheck.fileCount) files and exits 1; the file is left as it is.")

        // 7. The watcher: an edit made in another editor reaches the store.
        try await showLiveEdit(store: store, root: copy)

        // 8. A concurrent edit that git cannot merge, merged by Folio.
        try showMerge(root: copy)

        // 9. Two replicas kept in step.
        try showSync(root: copy)

        Output.print("\nDone: the copy is removed; \(fixtures.path) was not touched. Run 'swift test' for the test suite.")
        return ExitCode.success
    }
    /// Starts a watcher, saves a workout the way vim does (old file renamed to a backup,
    /// new file written, backup removed), and prints the change the store saw.
    @MainActor
    func showLiveEdit(store: Store, root: URL) async throws {
        let watcher = FolderWatcher(store: store)
        try watcher.start()
        defer { watcher.stop() }
        // What step 6 wrote behind the store's back is read first; then a clean start.
        await watcher.settle()
        var report = ChangeReport(store: store)
        let changes = store.changes()
        let path = "workouts/2026-10-25-long-run.md"
        let file = root.appendingPathComponent(path).path
        let text = try String(contentsOfFile: file, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("distance:") }) else {
            throw Failure(description: "\(path) has no distance")
        }
        let before = store.state[path].map { store.state.fields(of: $0) } ?? YAMLMapping()
        let started = ContinuousClock.now
        try FileManager.default.moveItem(atPath: file, toPath: file + "~")
        try text.replacingOccurrences(of: String(line), with: "distance: 22.5").write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: file + "~")
        Output.print("\n7. folio watch: saved \(path) from outside, as vim does (rename to a backup, write, remove the backup).")
        let waiter = Task { @MainActor in
            var lines: [String] = []
            for await change in changes {
                lines += report.lines(for: change, in: store, json: false)
                // In once the store holds the file again: a machine short of time can see
                // the rename away in a batch of its own (the quiet period over before the
                // write), and the new file in the next.
                if !lines.isEmpty, store.state[path] != nil { return lines }
            }
            return lines
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(5))
            waiter.cancel()
        }
        let lines = await waiter.value
        timeout.cancel()
        guard !lines.isEmpty else { throw Failure(description: "the watcher did not see the edit within 5 s") }
        let elapsed = Double((ContinuousClock.now - started).components.attoseconds) / 1e15
            + Double((ContinuousClock.now - started).components.seconds) * 1000
        Output.print("   The store picked it up \(Int(elapsed.rounded())) ms later (50 ms of it the quiet period that lets a save finish):")
        guard lines.count > 1, let record = store.state[path] else {
            for line in lines { Output.print("   " + line) }
            return
        }
        // What the save did, and how it arrived.
        let fields = RecordChangeTracker.differences(from: before, to: store.state.fields(of: record))
        Output.print("   " + RecordChangeEvent.updated(path: path, title: record.title, changes: fields).sentence)
        Output.print("   (it reached the store in \(lines.count) steps, the save slower than the quiet period: " + lines.joined(separator: "; ") + ")")
    }

    /// Two people edit the same recipe at once — neighbouring lines and the end of the
    /// same list — and the merge keeps both; git's line merge conflicts.
    func showMerge(root: URL) throws {
        let path = "recipes/hamburger.md"
        let base = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        guard let time = base.split(separator: "\n").first(where: { $0.hasPrefix("time:") }),
              let servings = base.split(separator: "\n").first(where: { $0.hasPrefix("servings:") })
        else { throw Failure(description: "\(path) has no time or servings") }
        var ours = try Document(text: base, path: path)
        try ours.setValue(.string("30m"), forKey: "time")
        try ours.appendItem(.string("quick"), toListForKey: "tags")
        var theirs = try Document(text: base, path: path)
        try theirs.setValue(.int(6), forKey: "servings")
        try theirs.appendItem(.string("grill"), toListForKey: "tags")
        let git = TextMerge.merge(base: Array(base.utf8), ours: ours.bytes, theirs: theirs.bytes)
        let folio = DocumentMerge.merge(base: Array(base.utf8), ours: ours.bytes, theirs: theirs.bytes)
        Output.print("\n8. Two people edit \(path) at once: Anna sets \(time) → 30m and adds the tag 'quick';")
        Output.print("   Ben sets \(servings) → 6 and adds the tag 'grill'. git merge-file: \(git.conflicts) conflict(s).")
        Output.print("   folio merge-file: \(folio.conflicts) conflicts; the merged front matter:")
        let merged = try Document(bytes: folio.bytes, path: path)
        for line in String(decoding: folio.bytes[merged.layout.yaml ?? 0..<0], as: UTF8.self).split(separator: "\n") {
            Output.print("   | " + line)
        }
    }

    /// A replica (a USB stick, say), concurrent edits on both sides, a sync that merges
    /// them, a real conflict kept as a copy, and a Syncthing conflict copy folded back
    /// against the version both edits started from.
    func showSync(root: URL) throws {
        let replica = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + "-usb")
        let state = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + "-state")
        defer {
            // Temporary folders, as the copy above: left behind, they harm nothing.
            try? FileManager.default.removeItem(at: replica)
            try? FileManager.default.removeItem(at: state)
        }
        try FileManager.default.createDirectory(at: replica, withIntermediateDirectories: true)
        var options = SyncOptions()
        options.stateDirectory = state.path
        let engine = try SyncEngine(root.path, replica.path, options: options)
        let first = try engine.run()
        Output.print("\n9. folio sync to a replica (a USB stick): \(first.copied.count) files copied.")
        func edit(_ folder: URL, _ path: String, _ from: String, _ to: String) throws {
            let url = folder.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            guard text.contains(from) else { throw Failure(description: "\(path) has no '\(from)'") }
            try text.replacingOccurrences(of: from, with: to).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit(root, "recipes/hamburger.md", "servings: 2", "servings: 6")
        try edit(replica, "recipes/hamburger.md", "time: 25m", "time: 30m")
        try edit(root, "todos/fix-bike.md", "title: Fix bike brakes", "title: Fix the bike brakes")
        usleep(20_000)
        try edit(replica, "todos/fix-bike.md", "title: Fix bike brakes", "title: Repair the brakes")
        // Syncthing, on the stick, met two concurrent edits of a quote (a phone added a
        // tag, the stick's owner a rating): one stays in place, the other is its conflict copy.
        let quote = "quotes/dont-panic.md"
        let original = try String(contentsOf: replica.appendingPathComponent(quote), encoding: .utf8)
        try original.replacingOccurrences(of: "\n---\n", with: "\nrating: 5\n---\n").write(
            to: replica.appendingPathComponent("quotes/dont-panic.sync-conflict-20261130-120000-7XQ4ZZZ.md"), atomically: true, encoding: .utf8)
        try edit(replica, quote, "\n---\n", "\ntags: [towel]\n---\n")
        let report = try engine.run()
        Output.print("   Edited on both sides: the laptop set servings 2 → 6 in hamburger.md, the stick time 25m → 30m;")
        Output.print("   both retitled todos/fix-bike.md; Syncthing left a conflict copy of \(quote) on the stick. folio sync:")
        for path in report.merges where report.conflicts[path] == nil { Output.print("   merged   \(path)") }
        for (path, copy) in report.conflicts.sorted(by: { $0.key < $1.key }) {
            Output.print("   conflict \(path): the newer title stays, the other is kept as \(copy.flatMap { $0 } ?? "markers")")
        }
        for copy in report.folds { Output.print("   folded   \(copy) back into \(quote) (against the version Folio saw before either edit)") }
        for (copy, reason) in report.copiesKept.sorted(by: { $0.key < $1.key }) { Output.print("   kept     \(copy.description): \(reason)") }
        func contents(_ folder: URL) -> [String: Data] {
            var files: [String: Data] = [:]
            for case let relative as String in FileManager.default.enumerator(atPath: folder.path)?.allObjects ?? [] {
                if let data = FileManager.default.contents(atPath: folder.path + "/" + relative) { files[relative] = data }
            }
            return files
        }
        let same = contents(root) == contents(replica)
        Output.print("   The replicas agree again\(same ? "" : " (not!)"); nothing was lost: every version is in a file, a conflict copy or the trash.")
    }

    /// The bundled collection: `FOLIO_FIXTURES`, ./Fixtures, or Fixtures/ beside the package sources.
    static func findFixtures() throws -> URL {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["FOLIO_FIXTURES"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Fixtures"))
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Fixtures"))
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("recipes").path, isDirectory: &isDirectory),
               isDirectory.boolValue
            {
                return candidate
            }
        }
        throw Failure(description: "cannot find the bundled Fixtures/ folder; run from the package root or set FOLIO_FIXTURES")
    }
}

extension String {
    func indented(by prefix: String = "   ") -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}
