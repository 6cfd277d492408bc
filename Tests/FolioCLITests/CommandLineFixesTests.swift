import Foundation
import Testing

/// The command-line faults found in review (issue 14), each run as a user runs it.
@Suite struct CommandLineFixesTests {
    func folder() throws -> URL {
        let folder = try FolioBinary.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("todos"), withIntermediateDirectories: true)
        try Data("---\ntitle: Buy milk\n---\n".utf8).write(to: folder.appendingPathComponent("todos/milk.md"))
        return folder
    }

    @Test func helpIsAnOptionNotAValueNorAnythingAfterDoubleDash() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // After `--`, -h is a path like any other: no such folder, not help.
        let afterDashes = try FolioBinary.run(["list", "--", "-h"], in: folder)
        #expect(afterDashes.status == 2 && !afterDashes.stdout.contains("usage:") && afterDashes.stderr.contains("-h"))
        // As an option's value it is the value: a todo titled -h.
        let titled = try FolioBinary.run(["add", folder.path, "todo", "--title", "-h"])
        #expect(titled.status == 0 && titled.stdout == "todos/h.md\n", "\(titled.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("todos/h.md"), encoding: .utf8).hasPrefix("---\ntitle: -h\n"))
        let help = try FolioBinary.run(["add", folder.path, "-h"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: folio add"))
    }

    @Test func addsHelpNamesTheKindsItTakes() throws {
        let help = try FolioBinary.run(["add", "--help"])
        #expect(help.stdout.contains("Writes a new file for a todo, workout, quote or recipe in KIND's folder (todos/, workouts/, quotes/, recipes/)"))
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let note = try FolioBinary.run(["add", folder.path, "note", "--title", "x"])
        #expect(note.status == 2 && note.stderr == "folio add: cannot add a 'note'; KIND is todo, workout, quote or recipe\n")
    }

    @Test func aFieldTheKindDoesNotTypeIsWrittenNotDropped() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try FolioBinary.run(["add", folder.path, "todo", "--title", "Pack", "--field", "tags=[travel, soon]", "--priority", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOf: folder.appendingPathComponent("todos/pack.md"), encoding: .utf8)
        #expect(text.contains("priority: 2\n") && text.contains("tags:"), "\(text)")
        #expect(try FolioBinary.run(["query", folder.path, "tag:travel"]).stdout.contains("todos/pack.md"))
        // A workout's complexity that is not one of the three is refused, not dropped.
        let hard = try FolioBinary.run(["add", folder.path, "workout", "--title", "Run", "--field", "complexity=extreme"])
        #expect(hard.status == 1 && hard.stderr.contains("unknown complexity 'extreme': use low, medium or high"))
    }

    @Test func anUnknownKindIsRefusedWithTheKindsThereAre() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["list", "random"] {
            let run = try FolioBinary.run([command, folder.path, "--kind", "nonsense"])
            #expect(run.status == 2, "\(command)")
            #expect(run.stderr == "folio \(command): unknown kind 'nonsense': the kinds are note, quote, recipe, todo, workout\n", "\(command)")
        }
        #expect(try FolioBinary.run(["list", folder.path, "--kind", "todo"]).stdout.contains("todos/milk.md"))
    }

    @Test func mergeFileWritesAtomicallyAndKeepsTheMode() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.txt")
        try Data("a\nb\nc\n".utf8).write(to: ours)
        try Data("a\nb\nc\n".utf8).write(to: folder.appendingPathComponent("base.txt"))
        try Data("a\nb\nc\nd\n".utf8).write(to: folder.appendingPathComponent("theirs.txt"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: ours.path)
        let before = try FileManager.default.attributesOfItem(atPath: ours.path)[.systemFileNumber] as? Int
        let run = try FolioBinary.run(["merge-file", "ours.txt", "base.txt", "theirs.txt"], in: folder)
        #expect(run.status == 0)
        #expect(try String(contentsOf: ours, encoding: .utf8) == "a\nb\nc\nd\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: ours.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // A new file renamed into place, not the old one rewritten where it stood.
        #expect((attributes[.systemFileNumber] as? Int) != before)
    }
}
