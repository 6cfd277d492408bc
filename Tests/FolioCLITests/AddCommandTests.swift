import Foundation
import Testing

/// `folio add`, run as a user runs it: the kinds it takes, fields it does not type, a
/// kind it does not know.
@Suite struct AddCommandTests {
    func folder() throws -> URL {
        let folder = try FolioBinary.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("todos"), withIntermediateDirectories: true)
        try Data("---\ntitle: Buy milk\n---\n".utf8).write(to: folder.appendingPathComponent("todos/milk.md"))
        return folder
    }

    @Test func addsHelpNamesTheKindsItTakes() async throws {
        let help = try await FolioBinary.run(["add", "--help"])
        #expect(help.stdout.contains("Writes a new file for a todo, workout, quote or recipe in KIND's folder (todos/, workouts/, quotes/, recipes/)"))
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let note = try await FolioBinary.run(["add", folder.path, "note", "--title", "x"])
        #expect(note.status == 2 && note.stderr == "folio add: cannot add a 'note'; KIND is todo, workout, quote or recipe\n")
    }

    @Test func aFieldTheKindDoesNotTypeIsWrittenNotDropped() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await FolioBinary.run(["add", folder.path, "todo", "--title", "Pack", "--field", "tags=[travel, soon]", "--priority", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOf: folder.appendingPathComponent("todos/pack.md"), encoding: .utf8)
        #expect(text.contains("priority: 2\n") && text.contains("tags:"), "\(text)")
        #expect(try await FolioBinary.run(["query", folder.path, "tag:travel"]).stdout.contains("todos/pack.md"))
        // A workout's complexity that is not one of the three is refused, not dropped.
        let hard = try await FolioBinary.run(["add", folder.path, "workout", "--title", "Run", "--field", "complexity=extreme"])
        #expect(hard.status == 1 && hard.stderr.contains("unknown complexity 'extreme': use low, medium or high"))
    }

    @Test func anUnknownKindIsRefusedWithTheKindsThereAre() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["list", "random"] {
            let run = try await FolioBinary.run([command, folder.path, "--kind", "nonsense"])
            #expect(run.status == 2, "\(command)")
            #expect(run.stderr == "folio \(command): unknown kind 'nonsense': the kinds are note, quote, recipe, todo, workout\n", "\(command)")
        }
        #expect(try await FolioBinary.run(["list", folder.path, "--kind", "todo"]).stdout.contains("todos/milk.md"))
    }

}
