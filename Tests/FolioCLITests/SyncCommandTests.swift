import FolioTestSupport
import Foundation
import Testing

/// `folio sync`, `folio conflicts`, `folio restore` and `folio watch A B`, run as a user runs them.
@Suite(.onAThreadOfItsOwn) struct SyncCommandTests {
    /// The summary says "in step" only when the replicas are: not after a real conflict.
    @Test func aConflictIsNotCalledInStep() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b"), state = root.appendingPathComponent("state").path
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FixtureFile.write("---\ntitle: Soup\n---\n", to: a.appendingPathComponent("soup.md").path)
        let first = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(first.status == 0 && first.stderr.hasPrefix("1 file in step; "), "\(first.stderr)")
        try FixtureFile.write("---\ntitle: Leek soup\n---\n", to: a.appendingPathComponent("soup.md").path)
        try FixtureFile.write("---\ntitle: Onion soup\n---\n", to: b.appendingPathComponent("soup.md").path)
        let conflict = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(conflict.status == 1 && conflict.stdout.hasPrefix("conflict soup.md: the other version is saved as soup.sync-conflict-"), "\(conflict)")
        #expect(conflict.stderr.hasPrefix("not in step yet: what is above is left for you; 2 files; "), "\(conflict.stderr)")
    }

    /// A file holding git's conflict markers is synced as it is, and said, by every sync
    /// until the markers are gone — one that finds nothing changed too: never "in step".
    @Test func aFileWithConflictMarkersIsSaidByEverySyncUntilEdited() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b"), state = root.appendingPathComponent("state").path
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let soup = a.appendingPathComponent("soup.md")
        try FixtureFile.write("---\ntitle: Soup\n---\n", to: soup.path)
        #expect(try await FolioBinary.run(["sync", a.path, b.path, "--state", state]).status == 0)
        try FixtureFile.write("---\ntitle: Soup\n---\n<<<<<<< HEAD\nSalt.\n=======\nPepper.\n>>>>>>> phone\n", to: soup.path)
        let said = "conflict markers in soup.md: it holds git's conflict markers (<<<<<<< … >>>>>>>): finish the merge — keep the lines you want, delete the marker lines — then sync again\n"
        let first = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(first.status == 1 && first.stdout == "copy    soup.md  (A → B)\n" + said, "\(first)")
        #expect(first.stderr.hasPrefix("not in step yet: "), "\(first.stderr)")
        // Nothing changed since: still said (the quick look that reads no file knows it).
        let again = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--json"])
        #expect(again.status == 1 && again.stdout.contains("\"conflictMarkers\": [\n    \"soup.md\"\n  ]"), "\(again)")
        let dry = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--dry-run"])
        #expect(dry.status == 1 && dry.stdout == said, "\(dry)")
        // Edited away: in step again.
        try FixtureFile.write("---\ntitle: Soup\n---\nSalt and pepper.\n", to: b.appendingPathComponent("soup.md").path)
        let mended = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(mended.status == 0 && mended.stdout == "copy    soup.md  (B → A)\n" && mended.stderr.hasPrefix("1 file in step; "), "\(mended)")
        let quiet = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet)")
    }

    @Test func syncConflictsAndRestore() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("laptop"), b = root.appendingPathComponent("phone"), state = root.appendingPathComponent("state").path
        // The state of the single folder B (folio conflicts and resolve), never the user's.
        let folderState = root.appendingPathComponent("folder-state").path
        func write(_ text: String, _ path: String, in folder: URL) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func read(_ path: String, in folder: URL) -> String? {
            FileManager.default.contents(atPath: folder.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
        }
        try write("---\ntitle: Soup\ntime: 15m\n---\n", "recipes/soup.md", in: a)
        try write("milk\n", "list.txt", in: a)
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        let first = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "copy    list.txt  (A → B)\ncopy    recipes/soup.md  (A → B)\n")
        #expect(first.stderr.contains("2 files in step; "), "\(first.stderr)")
        // A dry run says what it would do and does nothing.
        try FileManager.default.removeItem(at: a.appendingPathComponent("list.txt"))
        let dry = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--dry-run"])
        #expect(dry.stdout == "would delete  list.txt\n" && read("list.txt", in: b) == "milk\n")
        // Not "in step": a dry run changed nothing.
        #expect(dry.stderr.hasPrefix("dry run: ") && dry.stderr.hasSuffix("; nothing was changed\n") && !dry.stderr.contains("in step"), "\(dry.stderr)")
        #expect(try await FolioBinary.run(["sync", a.path, b.path, "--state", state]).stdout == "delete  list.txt\n")
        // Restore brings it back into the replica it was deleted from.
        let listing = try await FolioBinary.run(["restore", a.path, b.path, "--state", state])
        #expect(listing.stdout.hasSuffix("  B  list.txt\n"), "\(listing.stdout)")
        #expect(try await FolioBinary.run(["restore", a.path, b.path, "list.txt", "--state", state]).status == 0)
        #expect(read("list.txt", in: b) == "milk\n")
        // A real conflict: exit 1, a copy beside the file, listed by folio conflicts.
        try write("---\ntitle: Leek soup\ntime: 15m\n---\n", "recipes/soup.md", in: a)
        try write("---\ntitle: Onion soup\ntime: 15m\n---\n", "recipes/soup.md", in: b)
        // The dry run predicts it as the real run decides it, and exits as the real run does.
        let dryConflict = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--dry-run"])
        #expect(dryConflict.status == 1, "\(dryConflict.stderr)")
        // (list.txt, restored into B above, would be copied to A too.)
        #expect(dryConflict.stdout.hasPrefix("would copy    list.txt  (B → A)\nwould keep a conflict: recipes/soup.md (the other version saved as recipes/soup.sync-conflict-"), "\(dryConflict.stdout)")
        #expect(!dryConflict.stdout.contains("merge"), "\(dryConflict.stdout)")
        #expect(dryConflict.stderr.hasSuffix("; nothing was changed; a real sync would leave 1 conflict for you\n"), "\(dryConflict.stderr)")
        #expect(read("recipes/soup.md", in: b) == "---\ntitle: Onion soup\ntime: 15m\n---\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.appendingPathComponent("recipes").path) == ["soup.md"])
        let conflict = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--json"])
        #expect(conflict.status == 1)
        #expect(conflict.stdout.contains("\"conflicts\": {\n    \"recipes/soup.md\": \"recipes/soup.sync-conflict-"))
        // In conflict, so not merged: never listed as both.
        #expect(conflict.stdout.contains("\"merged\": []"), "\(conflict.stdout)")
        let listed = try await FolioBinary.run(["conflicts", b.path, "--state", folderState])
        #expect(listed.status == 1 && listed.stdout.contains("(a version of recipes/soup.md)"))
        // Resolve: see the difference, keep the copy's title, and the copy is gone.
        let copy = try #require(listed.stdout.split(separator: " ").first.map(String.init))
        let shown = try await FolioBinary.run(["resolve", b.path, copy, "--state", folderState])
        #expect(shown.stdout == "title: file Onion soup | copy Leek soup\n" || shown.stdout == "title: file Leek soup | copy Onion soup\n", "\(shown.stdout)")
        #expect(try await FolioBinary.run(["resolve", b.path, copy, "--keep", "copy", "--state", folderState]).status == 0)
        #expect(try await FolioBinary.run(["conflicts", b.path, "--state", folderState]).status == 0)
        // A replica that is missing is refused: exit 2, nothing changed.
        let missing = try await FolioBinary.run(["sync", a.path, root.appendingPathComponent("usb").path, "--state", state])
        #expect(missing.status == 2 && missing.stderr.contains("missing"))
    }

    @Test func watchOfAPairPrintsOneJSONObjectPerEvent() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("laptop"), b = root.appendingPathComponent("phone")
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data("milk\n".utf8).write(to: b.appendingPathComponent("list.txt"))
        let watcher = WatchCommandTests()
        let (process, out, err) = try watcher.start(["watch", a.path, b.path, "--json", "--state", root.appendingPathComponent("state").path, "--quiet", "10ms"])
        #expect(await err.wait(for: "in step (Ctrl-C stops)"))
        #expect(await out.wait(for: #"{"event":"copied","path":"list.txt"}"# + "\n"), "\(out.text)\(err.text)")
        try FixtureFile.write("---\ntitle: Soup\n---\n", to: a.appendingPathComponent("soup.md").path)
        #expect(await out.wait(for: #"{"event":"copied","path":"soup.md"}"# + "\n"), "\(out.text)\(err.text)")
        try FileManager.default.removeItem(at: b.appendingPathComponent("list.txt"))
        #expect(await out.wait(for: #"{"event":"deleted","path":"list.txt"}"# + "\n"), "\(out.text)\(err.text)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // Every line is one JSON object.
        for line in out.text.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)")
        }
    }

    @Test func aDryRunSaysWhichConflictCopyItWouldFoldAndFoldsNone() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b"), state = root.appendingPathComponent("state").path
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let soup = a.appendingPathComponent("soup.md"), copy = a.appendingPathComponent("soup.sync-conflict-20261204-120000-ABCDEFG.md")
        try Data("---\ntitle: Soup\n---\none\n\ntwo\n\nthree\n".utf8).write(to: soup)
        #expect(try await FolioBinary.run(["sync", a.path, b.path, "--state", state]).status == 0)
        // Syncthing's copy of a clash: each side changed another paragraph.
        try Data("---\ntitle: Soup\n---\none changed\n\ntwo\n\nthree\n".utf8).write(to: soup)
        try Data("---\ntitle: Soup\n---\none\n\ntwo\n\nthree changed\n".utf8).write(to: copy)
        let dry = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would fold soup.sync-conflict-20261204-120000-ABCDEFG.md into soup.md (its copy would go to the trash)\n"), "\(dry.stdout)")
        #expect(FileManager.default.fileExists(atPath: copy.path))
        #expect(String(decoding: try Data(contentsOf: soup), as: UTF8.self) == "---\ntitle: Soup\n---\none changed\n\ntwo\n\nthree\n")
        let real = try await FolioBinary.run(["sync", a.path, b.path, "--state", state])
        #expect(real.stdout.contains("folded  soup.sync-conflict-20261204-120000-ABCDEFG.md into soup.md (its copy is in the trash)\n"), "\(real.stdout)")
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }

    @Test func listingConflictCopiesMakesNoStateFolderAndLeavesNothingBehind() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes"), scratch = root.appendingPathComponent("tmp"), state = root.appendingPathComponent("state")
        for made in [folder, scratch] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        try Data("---\ntitle: Soup\n---\none\n".utf8).write(to: folder.appendingPathComponent("soup.md"))
        try Data("---\ntitle: Soup\n---\ntwo\n".utf8).write(to: folder.appendingPathComponent("soup.sync-conflict-20261204-120000-ABCDEFG.md"))
        for arguments in [["conflicts", folder.path], ["check", folder.path], ["fold", folder.path, "--dry-run"]] {
            let run = try await FolioBinary.run(arguments + ["--state", state.path], environment: ["TMPDIR": scratch.path])
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect((run.stdout + run.stderr).contains("soup.sync-conflict-20261204-120000-ABCDEFG.md"), "\(arguments): \(run.stdout)")
            // Only looked: no state folder made, and the dry run's stand-in for it gone.
            #expect(!FileManager.default.fileExists(atPath: state.path), "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [], "\(arguments)")
        }
    }

    @Test func aStateThatCannotBeWrittenExits3() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b"), file = root.appendingPathComponent("file")
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data("x".utf8).write(to: file)
        // The state would be a folder inside a regular file: an I/O failure, not bad usage.
        let run = try await FolioBinary.run(["sync", a.path, b.path, "--state", file.path + "/state"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("cannot lock the state folder"))
    }

    @Test func watchKeepsTwoReplicasInStep() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("laptop"), b = root.appendingPathComponent("phone")
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let watcher = WatchCommandTests()
        let (process, out, err) = try watcher.start(["watch", a.path, b.path, "--state", root.appendingPathComponent("state").path, "--quiet", "10ms"])
        #expect(await err.wait(for: "in step (Ctrl-C stops)"))
        try FixtureFile.write("---\ntitle: Soup\n---\n", to: a.appendingPathComponent("soup.md").path)
        #expect(await out.wait(for: "copy    soup.md  (A → B)\n"), "\(out.text)\(err.text)")
        let deadline = Date().addingTimeInterval(10), started = ContinuousClock.now
        defer { LongWaits.note(since: started, "the watched pair's first sync") }
        while FileManager.default.contents(atPath: b.appendingPathComponent("soup.md").path) == nil && Date() < deadline { try await Task.sleep(for: .seconds(0.01)) }
        #expect(FileManager.default.contents(atPath: b.appendingPathComponent("soup.md").path) == Data("---\ntitle: Soup\n---\n".utf8))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
