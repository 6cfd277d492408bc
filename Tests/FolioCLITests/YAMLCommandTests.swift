import Foundation
import Testing

/// `folio yaml`, run as a user runs it.
@Suite struct YAMLCommandTests {
    @Test func printsFrontMatterAsTypedJSONInKeyOrder() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("todo.md")
        try "---\ntitle: \"No\"\ndone: false\npriority: 2\nat: 12:30\ndate: 2026-11-30\nrate: 1.5\nnote:\ntags: [a, b]\n---\nBody\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try await FolioBinary.run(["yaml", file.path])
        #expect(run.status == 0)
        #expect(run.stdout == """
            {
              "title": "No",
              "done": false,
              "priority": 2,
              "at": "12:30",
              "date": "2026-11-30",
              "rate": 1.5,
              "note": null,
              "tags": [
                "a",
                "b"
              ]
            }

            """)
    }

    @Test func readsWholeYAMLFiles() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("settings.yaml")
        try "- yes\n- 0x10\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try await FolioBinary.run(["yaml", file.path])
        #expect(run.status == 0)
        #expect(run.stdout == "[\n  \"yes\",\n  16\n]\n")
    }

    @Test func refusedFilePrintsTheErrorWithACaretAndExits1() async throws {
        let folder = try FolioBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("soup.md")
        try "---\ntitle: Soup\nbase: &b 1\n---\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try await FolioBinary.run(["yaml", file.path])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == """
            \(file.path):3:7: error: anchors ('&name') are not supported by Folio's YAML subset; write the value out in full
            base: &b 1
                  ^

            """)
    }

    @Test func usageErrorsExit2AndHelpExits0() async throws {
        let unknown = try await FolioBinary.run(["yaml", "--frobnicate", "x.md"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option '--frobnicate'"))
        #expect(unknown.stderr.contains("usage: folio yaml FILE"))
        #expect(try await FolioBinary.run(["yaml"]).status == 2)
        #expect(try await FolioBinary.run(["nonsense"]).status == 2)
        let help = try await FolioBinary.run(["yaml", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: folio yaml FILE"))
        let missing = try await FolioBinary.run(["yaml", "/nonexistent/file.md"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("/nonexistent/file.md: error: cannot open: No such file or directory"))
    }
}
