import FolioFolder
import Foundation
import Testing

/// `folio conflicts`, `check`, `list`, `resolve` and `restore DIR` on a folder with other
/// tools' conflict copies, run as a user runs them; each test in a fresh folder with its
/// own state folder.
@Suite struct ConflictCommandTests {
    typealias Scene = FolderScene

    @Test func conflictsSaysWhichCopiesCanBeFoldedAndWhyNot() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        let none = try await scene.folio(["conflicts", scene.dir.path])
        #expect(none.status == 0 && none.stdout.isEmpty)
        try await scene.withCopies()
        // Folio's own copy, from folio sync: a real conflict.
        try scene.write("---\ntitle: Q3\n---\n", "q.sync-conflict-20261201-140000-A.md")
        let run = try await scene.folio(["conflicts", scene.dir.path])
        #expect(run.status == 1)
        let settle = { (copy: String) in "compare them with folio resolve \(scene.dir.path) \(copy), then keep one with --keep file or --keep copy" }
        #expect(run.stdout == """
            q.sync-conflict-20261201-130000-ABCDEFG.md  (a version of q.md): cannot be folded: no common ancestor of q.md and the copy is known; \(settle("q.sync-conflict-20261201-130000-ABCDEFG.md"))
            q.sync-conflict-20261201-140000-A.md  (a version of q.md): a conflict Folio kept (folio sync or folio git-sync): \(settle("q.sync-conflict-20261201-140000-A.md"))
            r.sync-conflict-20261201-120000-ABCDEFG.md  (a version of r.md): cannot be folded: time (20m | 25m); \(settle("r.sync-conflict-20261201-120000-ABCDEFG.md"))
            r.sync-conflict-20261201-130000-ABCDEFG.md  (a version of r.md): can be folded (base: history)

            """)
        // A dry run: nothing folded, nothing moved.
        #expect(scene.read("r.sync-conflict-20261201-130000-ABCDEFG.md") != nil && scene.read("r.md")?.contains("line three") == false)
        let json = try await scene.folio(["conflicts", scene.dir.path, "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let copies = try #require(object["conflicts"] as? [[String: Any]])
        #expect(copies.map { $0["copy"] as? String } == [
            "q.sync-conflict-20261201-130000-ABCDEFG.md", "q.sync-conflict-20261201-140000-A.md",
            "r.sync-conflict-20261201-120000-ABCDEFG.md", "r.sync-conflict-20261201-130000-ABCDEFG.md",
        ])
        #expect(copies.map { $0["foldable"] as? Bool } == [false, false, false, true])
        #expect(copies.map { $0["fromFolioSync"] as? Bool } == [false, true, false, false])
        #expect(copies[2]["reason"] as? String == "time (20m | 25m)" && copies[3]["base"] as? String == "history")
        #expect(copies[3]["file"] as? String == "r.md")
    }

    @Test func checkReportsEachConflictCopyAsAProblem() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try await scene.withCopies()
        let run = try await scene.folio(["check", scene.dir.path])
        #expect(run.status == 1)
        let dir = scene.dir.path
        let settle = { (copy: String) in "compare them with folio resolve \(dir) \(copy), then keep one with --keep file or --keep copy" }
        #expect(run.stdout == """
            \(dir)/q.sync-conflict-20261201-130000-ABCDEFG.md: error: conflict copy of q.md: cannot be folded: no common ancestor of q.md and the copy is known; \(settle("q.sync-conflict-20261201-130000-ABCDEFG.md"))
            \(dir)/r.sync-conflict-20261201-120000-ABCDEFG.md: error: conflict copy of r.md: cannot be folded: time (20m | 25m); \(settle("r.sync-conflict-20261201-120000-ABCDEFG.md"))
            \(dir)/r.sync-conflict-20261201-130000-ABCDEFG.md: error: conflict copy of r.md: can be folded (base: history)

            """)
        #expect(run.stderr == "checked 5 files in \(dir): 3 problems\n")
    }

    @Test func listMarksConflictCopies() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try scene.write("---\ntitle: Q\n---\n", "q.md")
        try scene.write("---\ntitle: Q2\n---\n", "q.sync-conflict-20261201-130000-ABCDEFG.md")
        try scene.write("---\ntitle: Q3\n---\n", "q (Anna's conflicted copy 2026-12-01).md")
        let run = try await FolioBinary.run(["list", scene.dir.path])
        #expect(run.status == 0)
        #expect(run.stdout == """
            q (Anna's conflicted copy 2026-12-01).md    note  Q3  (conflict copy of q.md)
            q.md                                        note  Q
            q.sync-conflict-20261201-130000-ABCDEFG.md  note  Q2  (conflict copy of q.md)

            """)
        let json = try await FolioBinary.run(["list", scene.dir.path, "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["conflictOf"] as? String } == ["q.md", nil, "q.md"])
    }

    @Test func resolveShowsDifferencesAndKeepsOneSideInTheTrash() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try await scene.withCopies()
        let clash = "r.sync-conflict-20261201-120000-ABCDEFG.md"
        let shown = try await scene.folio(["resolve", scene.dir.path, clash])
        #expect(shown.status == 0)
        #expect(shown.stdout == "time: file 20m | copy 25m\n-line two\n+line 2\n")
        // An absolute path inside DIR names the same copy; one outside DIR is refused.
        #expect(try await scene.folio(["resolve", scene.dir.path, scene.dir.appendingPathComponent(clash).path]).stdout == shown.stdout)
        let outside = scene.root.appendingPathComponent("elsewhere.sync-conflict-20261201-120000-ABCDEFG.md")
        try Data("x\n".utf8).write(to: outside)
        let refused = try await scene.folio(["resolve", scene.dir.path, outside.path])
        #expect(refused.status == 2 && refused.stderr.contains("is not inside"))
        #expect(try await scene.folio(["resolve", scene.dir.path, clash, "--keep", "both"]).status == 2)
        // --keep file: the copy goes to the trash, the file stays.
        let keptFile = try await scene.folio(["resolve", scene.dir.path, clash, "--keep", "file"])
        #expect(keptFile.status == 0)
        #expect(keptFile.stdout == "kept r.md; \(clash) is in the trash (folio restore \(scene.dir.path) \(clash) brings it back)\n")
        #expect(scene.read(clash) == nil && scene.read("r.md") == "---\ntitle: R\ntime: 20m\n---\nline one\nline two\n")
        // --keep copy: the file's content and the copy go to the trash, the copy's content to the file (its mode kept).
        let q = scene.dir.appendingPathComponent("q.md").path
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: q)
        let keptCopy = try await scene.folio(["resolve", scene.dir.path, "q.sync-conflict-20261201-130000-ABCDEFG.md", "--keep", "copy"])
        #expect(keptCopy.status == 0, "\(keptCopy.stderr)")
        #expect(scene.read("q.md") == "---\ntitle: Q2\n---\n" && scene.read("q.sync-conflict-20261201-130000-ABCDEFG.md") == nil)
        #expect((try FileManager.default.attributesOfItem(atPath: q)[.posixPermissions] as? Int) == 0o600)
        let trash = try await scene.folio(["restore", scene.dir.path])
        #expect(trash.status == 0)
        #expect(trash.stdout.components(separatedBy: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }.sorted() == [
            "", " q.md", " q.sync-conflict-20261201-130000-ABCDEFG.md", " r.sync-conflict-20261201-110000-ABCDEFG.md",
            " \(clash)",
        ])
    }

    @Test func resolveMergesAgainstTheBaseWithMarkersOnlyWhereTheyClash() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try await scene.withCopies()
        let clean = try await scene.folio(["resolve", scene.dir.path, "r.sync-conflict-20261201-130000-ABCDEFG.md", "--merge"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout == "merged r.sync-conflict-20261201-130000-ABCDEFG.md into r.md (base: history); the copy is in the trash\n")
        #expect(scene.read("r.md") == "---\ntitle: R\ntime: 20m\n---\nline one\nline two\nline three\n")
        #expect(scene.read("r.sync-conflict-20261201-130000-ABCDEFG.md") == nil)
        // The copy that clashes: markers around the time only (its body is the file's).
        try scene.write("---\ntitle: R\ntime: 25m\n---\nline one\nline two\nline three\n", "r.sync-conflict-20261201-120000-ABCDEFG.md")
        let marked = try await scene.folio(["resolve", scene.dir.path, "r.sync-conflict-20261201-120000-ABCDEFG.md", "--merge"])
        #expect(marked.status == 1)
        #expect(marked.stdout == """
            merged r.sync-conflict-20261201-120000-ABCDEFG.md into r.md (base: history); the copy is in the trash
            1 conflict marked in r.md between <<<<<<< and >>>>>>>: edit it away

            """)
        #expect(scene.read("r.md") == "---\ntitle: R\n<<<<<<<\ntime: 20m\n=======\ntime: 25m\n>>>>>>>\n---\nline one\nline two\nline three\n")
        // No base known: refused, nothing changed.
        let refused = try await scene.folio(["resolve", scene.dir.path, "q.sync-conflict-20261201-130000-ABCDEFG.md", "--merge"])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("folio resolve: cannot merge q.sync-conflict-20261201-130000-ABCDEFG.md: no earlier version of q.md is known to serve as the base"))
        #expect(scene.read("q.md") == "---\ntitle: Q\n---\n" && scene.read("q.sync-conflict-20261201-130000-ABCDEFG.md") != nil)
    }

    /// No base known: each field that differs taken from the side named; every
    /// difference must be chosen, and a key that does not differ is refused.
    @Test func resolveTakesEachFieldFromTheSideNamedWithoutABase() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        let copy = "soup.sync-conflict-20261201-130000-ABCDEFG.md"
        try scene.write("---\ntitle: Soup\ntime: 20m\nservings: 2\n---\nSalt.\n", "soup.md")
        try scene.write("---\ntitle: Soup\ntime: 25m\nservings: 4\n---\nPepper.\n", copy)
        let undecided = try await scene.folio(["resolve", scene.dir.path, copy, "--take", "servings=copy"])
        #expect(undecided.status == 2 && undecided.stderr == "folio resolve: cannot settle \(copy): time, body differ too: say which side to take, e.g. --take time=file or --take time=copy\n", "\(undecided)")
        let unknown = try await scene.folio(["resolve", scene.dir.path, copy, "--take", "title=copy", "--take", "time=file", "--take", "servings=copy", "--take", "body=copy"])
        #expect(unknown.status == 2 && unknown.stderr == "folio resolve: cannot settle \(copy): title does not differ between the file and the copy\n", "\(unknown)")
        #expect(try await scene.folio(["resolve", scene.dir.path, copy, "--take", "time=both"]).status == 2)
        #expect(try await scene.folio(["resolve", scene.dir.path, copy, "--take", "time=file", "--keep", "file"]).status == 2)
        #expect(scene.read("soup.md") == "---\ntitle: Soup\ntime: 20m\nservings: 2\n---\nSalt.\n" && scene.read(copy) != nil)
        let took = try await scene.folio(["resolve", scene.dir.path, copy, "--take", "time=file", "--take", "servings=copy", "--take", "body=copy"])
        #expect(took.status == 0 && took.stdout == "took body, servings from the copy, the rest from soup.md; the file's former content and \(copy) are in the trash (folio restore \(scene.dir.path) lists them)\n", "\(took)")
        #expect(scene.read("soup.md") == "---\ntitle: Soup\ntime: 20m\nservings: 4\n---\nPepper.\n" && scene.read(copy) == nil)
    }

    @Test func restoreBringsBackWhatAFolderSetAside() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        let empty = try await scene.folio(["restore", scene.dir.path])
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("nothing in the trash of this folder"))
        try scene.write("---\ntitle: Q\n---\n", "q.md")
        try scene.write("---\ntitle: Q2\n---\n", "q.sync-conflict-20261201-130000-ABCDEFG.md")
        #expect(try await scene.folio(["resolve", scene.dir.path, "q.sync-conflict-20261201-130000-ABCDEFG.md", "--keep", "file"]).status == 0)
        let listed = try await scene.folio(["restore", scene.dir.path])
        #expect(listed.status == 0 && listed.stdout.hasSuffix("  q.sync-conflict-20261201-130000-ABCDEFG.md\n") && !listed.stdout.contains("  A  "), "\(listed.stdout)")
        // DIR PATH: the second argument is no folder.
        let restored = try await scene.folio(["restore", scene.dir.path, "q.sync-conflict-20261201-130000-ABCDEFG.md"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(scene.read("q.sync-conflict-20261201-130000-ABCDEFG.md") == "---\ntitle: Q2\n---\n")
        let missing = try await scene.folio(["restore", scene.dir.path, "nothing.md"])
        #expect(missing.status == 1 && missing.stderr.contains("nothing.md is not in the trash of this folder"))
    }
}

extension FolderScene {
    /// r.md's first version in the history (a copy identical to it, folded), then r.md
    /// edited and three copies: one that clashes with it, one that can be folded, and
    /// one of q.md, of which no earlier version is known.
    func withCopies() async throws {
        try write("---\ntitle: R\ntime: 15m\n---\nline one\nline two\n", "r.md")
        try write("---\ntitle: R\ntime: 15m\n---\nline one\nline two\n", "r.sync-conflict-20261201-110000-ABCDEFG.md")
        let seed = try await folio(["fold", dir.path, "--quiet", "0s"])
        #expect(seed.stdout == "folded r.sync-conflict-20261201-110000-ABCDEFG.md into r.md (the same content)\n", "\(seed.stderr)")
        try write("---\ntitle: R\ntime: 20m\n---\nline one\nline two\n", "r.md")
        try write("---\ntitle: R\ntime: 25m\n---\nline one\nline 2\n", "r.sync-conflict-20261201-120000-ABCDEFG.md")
        try write("---\ntitle: R\ntime: 15m\n---\nline one\nline two\nline three\n", "r.sync-conflict-20261201-130000-ABCDEFG.md")
        try write("---\ntitle: Q\n---\n", "q.md")
        try write("---\ntitle: Q2\n---\n", "q.sync-conflict-20261201-130000-ABCDEFG.md")
    }
}
