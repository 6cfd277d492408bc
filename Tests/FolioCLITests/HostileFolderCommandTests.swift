import Foundation
import FolioTestSupport
import Testing

/// Folders others write, through the built `folio`: names that hold control characters
/// never reach a terminal raw, and a folder swapped for a link over and over while real
/// `folio sync` and `folio watch A B` processes run never sends a read or a write outside.
@Suite(.onAThreadOfItsOwn) struct HostileFolderCommandTests {
    /// A name that would clear the terminal, and one that would forge a report line.
    static let names = ["\u{1B}[2J.md", "a\ncopy    injected.md", "c\u{9B}2J.md"]

    @Test func controlCharactersInNamesAreEscapedInEveryTextOutput() async throws {
        let top = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: top) }
        let a = top.appendingPathComponent("A"), b = top.appendingPathComponent("B")
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for name in Self.names { try Data("---\ntitle: \"x\n---\n".utf8).write(to: a.appendingPathComponent(name)) }
        let state = top.appendingPathComponent("state").path
        let runs = [
            try await FolioBinary.run(["sync", a.path, b.path, "--state", state]),
            try await FolioBinary.run(["list", a.path]),
            try await FolioBinary.run(["check", a.path]),
        ]
        for run in runs {
            for text in [run.stdout, run.stderr] {
                #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }, "\(text.debugDescription)")
                #expect(!text.split(separator: "\n").contains("copy    injected.md"), "\(text.debugDescription)")
            }
        }
        #expect(runs[0].stdout.contains("copy    \\x1B[2J.md"))
        #expect(runs[0].stdout.contains("copy    a\\x0Acopy    injected.md"))
        #expect(runs[0].stdout.contains("copy    c\\u{9B}2J.md"))
        #expect(runs[2].stdout.contains("\\x1B[2J.md:2:8: "), "\(runs[2].stdout.debugDescription)")
        // JSON keeps its own escaping.
        let json = try await FolioBinary.run(["sync", a.path, b.path, "--state", state, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["files"] as? Int == 3, "\(json.stdout)")
    }

    @Test func watchPrintsNamesEscaped() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = WatchCommandTests()
        let (process, out, err) = try watch.start(["watch", folder.path, "--quiet", "10ms"])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(await err.wait(for: "watching"))
        try Data("---\ntitle: \"x\n---\n".utf8).write(to: folder.appendingPathComponent(Self.names[1]))
        try Data("---\ntitle: Soup\n---\n".utf8).write(to: folder.appendingPathComponent(Self.names[0]))
        #expect(await out.wait(for: "added \\x1B[2J.md: Soup\n"), "\(out.text.debugDescription)")
        #expect(await out.wait(for: "invalid a\\x0Acopy    injected.md:2:8: "), "\(out.text.debugDescription)")
        #expect(!out.text.unicodeScalars.contains { $0.value == 0x1B })
        #expect(!out.text.split(separator: "\n").contains("copy    injected.md:2:8: unterminated double-quoted string"))
    }

    /// Tests/Hostile/swaploop.py: 50 syncs of 30 new files each (and an edit) while B's
    /// folder trades places with a link to a canary at seeded random moments, then the
    /// same with `folio watch A B` running; inotify on the canary sees no read and no
    /// write, and its secret is in no replica and no state folder. About a minute.
    @Test func aFolderSwappedForALinkInALoopNeverLeaks() async throws {
        guard let run = try await PythonHarness.run("Tests/Hostile/swaploop.py", ["--syncs", "50", "--seed", "21", "--tools", "sync,watch"], timeout: 600)
        else { return }
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.lastLine == "2 passed, 0 failed", "\(run.output)")
    }
}
