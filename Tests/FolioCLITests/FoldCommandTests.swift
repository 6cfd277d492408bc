import Foundation
import FolioTestSupport
import Testing

/// `folio fold`, `folio conflicts` and `folio watch DIR` on the conflict copies a sync
/// tool leaves, run as a user runs them: a fold run right after the sync tool wrote a
/// copy, copies holding one version, and a full disk.
@Suite(.onAThreadOfItsOwn) struct FoldCommandTests {
    static let soup = "---\ntitle: Soup\nservings: 4\ntime: 15m\n---\nHot.\n"
    static let copy = "soup.sync-conflict-20261201-120000-ABCDEFG.md"

    static func soup(_ changes: [(String, String)]) -> String {
        changes.reduce(soup) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    typealias Scene = FolderScene

    // MARK: a fold run right after the sync tool wrote a copy

    @Test func aFoldRunRightAfterTheSyncToolWroteACopyWaitsItsQuietPeriodThenFolds() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try await scene.save(Self.soup, "soup.md")
        // The sync tool, a moment ago: the other device's edit in place, this one's as the copy.
        try scene.write(Self.soup([("servings: 4", "servings: 6")]), "soup.md")
        try scene.write(Self.soup([("time: 15m", "time: 20m")]), Self.copy)
        let run = try await scene.folio(["fold", scene.dir.path])
        #expect(run.status == 0)
        #expect(run.stderr == "folio fold: waiting up to 12s for \(Self.copy) and its file to be left alone for 2s: the sync tool may still be writing them\n")
        #expect(run.stdout == "folded \(Self.copy) into soup.md (base: history)\n")
        #expect(scene.read(Self.copy) == nil)
        #expect(scene.read("soup.md") == Self.soup([("servings: 4", "servings: 6"), ("time: 15m", "time: 20m")]))
    }

    @Test func aWaitedForFoldReportsEachCopyOnce() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        // q.md's copy, of which no earlier version is known, stays: said once, however many
        // times the fold looks while it waits for the fresh copy of soup.md.
        let q = "q.sync-conflict-20261201-120000-ABCDEFG.md"
        try scene.write("---\ntitle: Q\n---\n", "q.md")
        try scene.write("---\ntitle: Q2\n---\n", q)
        try scene.write(Self.soup, "soup.md")
        try await Task.sleep(for: .seconds(1.1))
        #expect(try await scene.folio(["fold", scene.dir.path, "--quiet", "0s"]).status == 1)
        try scene.write(Self.soup([("servings: 4", "servings: 6")]), "soup.md")
        try scene.write(Self.soup([("time: 15m", "time: 20m")]), Self.copy)
        // The copy's time set 3 s ahead, so that it is still fresh when the binary starts on
        // a starved machine (its start has taken over the 1 s quiet period).
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(3)], ofItemAtPath: scene.dir.appendingPathComponent(Self.copy).path)
        let run = try await scene.folio(["fold", scene.dir.path, "--quiet", "1s"])
        #expect(run.status == 1)
        #expect(run.stderr == "folio fold: waiting up to 11s for \(Self.copy) and its file to be left alone for 1s: the sync tool may still be writing them\n")
        #expect(run.stdout == """
            folded \(Self.copy) into soup.md (base: history)
            conflict kept q.md: no common ancestor of q.md and the copy is known (the other version stays as \(q)); compare them with folio resolve \(scene.dir.path) \(q), then keep one with --keep file or --keep copy

            """)
    }

    @Test func aCopyStillChangingAfterTheWaitIsReportedWaiting() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try await scene.save(Self.soup, "soup.md")
        try scene.write(Self.soup([("time: 15m", "time: 20m")]), Self.copy)
        // The sync tool still writing the copy, all through the wait (half a second's quiet
        // period and ten seconds more).
        let copy = scene.dir.appendingPathComponent(Self.copy).path
        let writing = WritingLoop { try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: copy) }
        let run = try await scene.folio(["fold", scene.dir.path, "--quiet", "0.5s"])
        writing.stop()
        #expect(run.status == 1)
        #expect(run.stderr == "folio fold: waiting up to 10.5s for \(Self.copy) and its file to be left alone for 500ms: the sync tool may still be writing them\n")
        #expect(run.stdout == "waiting \(Self.copy): changed too recently, or the sync tool is still writing it\n")
        #expect(scene.read(Self.copy) == Self.soup([("time: 15m", "time: 20m")]) && scene.read("soup.md") == Self.soup)
    }

    /// Runs `body` every 100 ms on a thread of its own until stopped.
    final class WritingLoop: @unchecked Sendable {
        // @unchecked Sendable is safe: `stopped` is only touched while holding `lock`.
        private let lock = NSLock()
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () -> Void) {
            Thread.detachNewThread { [self] in
                while !lock.withLock({ stopped }) {
                    body()
                    Thread.sleep(forTimeInterval: 0.1)
                }
                done.signal()
            }
        }

        func stop() {
            lock.withLock { stopped = true }
            done.wait()
        }
    }

    // MARK: copies holding one version

    /// recipes/soup.md seen by two devices; the laptop (state `a`) set the time to 20m,
    /// the phone (state `b`) the servings to 6, and the sync tools made four copies of the
    /// phone's version: Syncthing's, Dropbox's and two of Nextcloud's.
    func fourCopiesOfOneEdit() async throws -> Scene {
        let scene = try Scene()
        let laptop = scene.root.appendingPathComponent("a").path, phone = scene.root.appendingPathComponent("b").path
        try await scene.save(Self.soup, "recipes/soup.md", state: laptop)
        try await scene.save(Self.soup, "recipes/soup.md", state: phone)
        try await scene.save(Self.soup([("servings: 4", "servings: 6")]), "recipes/soup.md", state: phone)
        try await scene.save(Self.soup([("time: 15m", "time: 20m")]), "recipes/soup.md", state: laptop)
        for copy in Self.fourCopies { try scene.write(Self.soup([("servings: 4", "servings: 6")]), copy) }
        return scene
    }

    static let fourCopies = [
        "recipes/soup.sync-conflict-20261201-120000-ABCDEFG.md", "recipes/soup (Anna's conflicted copy 2026-12-01).md",
        "recipes/soup (conflicted copy 2026-12-01 120000).md", "recipes/soup (conflicted copy).md",
    ]

    @Test func copiesHoldingAnotherCopysBytesAreSaidToBeSetAsideForIt() async throws {
        let scene = try await fourCopiesOfOneEdit()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        let laptop = scene.root.appendingPathComponent("a").path
        let first = Self.fourCopies[0]
        let conflicts = try await scene.folio(["conflicts", scene.dir.path], state: laptop)
        #expect(conflicts.status == 1)
        #expect(conflicts.stdout == """
            recipes/soup (Anna's conflicted copy 2026-12-01).md  (a version of recipes/soup.md): can be set aside: \(first) holds the same content
            recipes/soup (conflicted copy 2026-12-01 120000).md  (a version of recipes/soup.md): can be set aside: \(first) holds the same content
            recipes/soup (conflicted copy).md  (a version of recipes/soup.md): can be set aside: \(first) holds the same content
            \(first)  (a version of recipes/soup.md): can be folded (base: history)

            """)
        let listed = try await scene.folio(["conflicts", scene.dir.path, "--json"], state: laptop)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let copies = try #require(object["conflicts"] as? [[String: Any]])
        #expect(copies.map { $0["sameAs"] as? String } == [first, first, first, nil])
        #expect(copies.map { $0["foldable"] as? Bool } == [true, true, true, true])
        #expect(copies[3]["base"] as? String == "history" && copies[3].keys.contains("sameAs"))
        let dryRun = try await scene.folio(["fold", scene.dir.path, "--quiet", "0s", "--dry-run", "--json"], state: laptop)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any])
        let folded = try #require(report["folded"] as? [[String: Any]])
        #expect(folded.map { $0["copy"] as? String } == [first] + [1, 2, 3].map { Self.fourCopies[$0] })
        #expect(folded.map { $0["sameAs"] as? String } == [nil, first, first, first])
        #expect(folded.map { $0["base"] as? String } == ["history", nil, nil, nil])
        let run = try await scene.folio(["fold", scene.dir.path, "--quiet", "0s"], state: laptop)
        #expect(run.status == 0)
        #expect(run.stdout == """
            folded \(first) into recipes/soup.md (base: history)
            set aside recipes/soup (Anna's conflicted copy 2026-12-01).md: \(first) holds the same content
            set aside recipes/soup (conflicted copy 2026-12-01 120000).md: \(first) holds the same content
            set aside recipes/soup (conflicted copy).md: \(first) holds the same content

            """)
        #expect(scene.read("recipes/soup.md") == Self.soup([("servings: 4", "servings: 6"), ("time: 15m", "time: 20m")]))
        #expect(Self.fourCopies.allSatisfy { scene.read($0) == nil })
    }

    // MARK: a full disk

    /// A tmpfs of `size` mounted at `folder` (made), or nil after a notice when mounting
    /// is not permitted here (not root, or no mount in this container).
    static func mountTmpfs(at folder: URL, size: String) throws -> URL? {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mounted = try? ExternalTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
        guard mounted?.status == 0 else {
            print("notice: skipping a test that needs a small tmpfs: mount -t tmpfs is not permitted here")
            return nil
        }
        return folder
    }

    /// Fills the file system holding `url` with a file there, until it refuses more.
    static func fill(_ url: URL) throws {
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
    }

    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    @Test func watchOnAFullDiskSaysSoOnceAndFoldsOnceThereIsRoom() async throws {
        let root = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        guard let disk = try Self.mountTmpfs(at: root.appendingPathComponent("disk"), size: "1m") else { return }
        defer { _ = try? ExternalTool.run("/bin/umount", [disk.path]) }
        // The folder and its state on the same small disk, as under one home folder.
        let scene = try Scene(in: disk)
        try await scene.save(Self.soup, "soup.md")
        try scene.write(Self.soup([("servings: 4", "servings: 6")]), "soup.md")
        try scene.write(Self.soup([("time: 15m", "time: 20m")]), Self.copy)
        let filler = disk.appendingPathComponent("filler")
        try Self.fill(filler)
        let (process, out, err) = try WatchCommandTests().start(["watch", scene.dir.path, "--state", scene.state, "--retry-every", "1s"])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "watching "), "\(err.text)")
        let full = "cannot fold \(Self.copy) into soup.md yet: cannot keep the file's version in the trash in \(scene.state): No space left on device. Free some space on that disk, then fold again; folio watch tries again every 1s\n"
        // The versions cannot be recorded either (the history is on that disk too): said once as well.
        let unrecorded = "waiting: cannot record the folder's versions in \(scene.state)/history: No space left on device. Free some space on that disk, then folding goes on; until then conflict copies may be kept rather than folded\n"
        #expect(await out.wait(for: unrecorded + full), "\(out.text)")
        // Tried again every second (--retry-every) and said once: FoldingFollowerTests moves
        // the follower's clock through the retries; here, said once over the whole run (below).
        try FileManager.default.removeItem(at: filler)
        let folded = "folded \(Self.copy) into soup.md (base: history)\n"
        #expect(await out.wait(for: folded, timeout: 10), "\(out.text)")
        // What the fold changed, as watch prints every change (in the order it sees them).
        let changes = ["removed \(Self.copy)\n", "updated soup.md: time 15m → 20m\n"]
        let first = await out.wait(for: changes[0]), second = await out.wait(for: changes[1])
        #expect(first && second, "\(out.text)")
        let lines = out.text.split(separator: "\n").map { String($0) + "\n" }
        #expect(lines.prefix(2) == [unrecorded, full] && lines.count == 5 && Set(lines.dropFirst(2)) == Set([folded] + changes), "\(out.text)")
        #expect(scene.read(Self.copy) == nil)
        #expect(scene.read("soup.md") == Self.soup([("servings: 4", "servings: 6"), ("time: 15m", "time: 20m")]))
        // In the trash: the copy and the file's version the fold replaced, once each, and
        // no folder left by a try that failed.
        let trash = URL(fileURLWithPath: scene.state).appendingPathComponent("trash").path
        let entries = try FileManager.default.subpathsOfDirectory(atPath: trash)
        let files = entries.filter { !Self.isFolder(trash + "/" + $0) }
        #expect(files.map { ($0 as NSString).lastPathComponent }.sorted() == ["soup.md", Self.copy], "\(entries)")
        #expect(entries.filter { Self.isFolder(trash + "/" + $0) }.allSatisfy { folder in files.contains { $0.hasPrefix(folder + "/") } }, "\(entries)")
        #expect(err.text == "watching \(scene.dir.path): 2 records (Ctrl-C stops)\n")
    }
}
