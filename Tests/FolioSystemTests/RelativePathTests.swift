import Foundation
import Testing
@testable import FolioSystem

/// Paths relative to a root, as text.
@Suite struct RelativePathTests {
    /// A path is at or below a folder only along whole components; the root holds all.
    @Test func aPathIsAtOrBelowAFolderByWholeComponents() {
        #expect(RelativePath.isAt("notes/a.md", orBelow: "notes"))
        #expect(RelativePath.isAt("notes", orBelow: "notes"))
        #expect(RelativePath.isAt("notes/deep/a.md", orBelow: ""))
        #expect(RelativePath.isAt("", orBelow: ""))
        #expect(!RelativePath.isAt("notes2/a.md", orBelow: "notes"))
        #expect(!RelativePath.isAt("notes", orBelow: "notes/a.md"))
        #expect(!RelativePath.isAt("", orBelow: "notes"))
    }

    /// A path a person named is found below its folder by whole components, through
    /// links (their word), relative or absolute; a sibling that shares the folder's name
    /// as a prefix, the folder itself and a missing file are not.
    @Test func aPathAPersonNamedIsFoundBelowItsFolderByWholeComponents() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("folio-named-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        for folder in ["notes/todos", "notes2"] {
            try FileManager.default.createDirectory(at: base.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["notes/todos/a.md", "notes2/b.md"] { try Data("x\n".utf8).write(to: base.appendingPathComponent(file)) }
        try FileManager.default.createSymbolicLink(atPath: base.appendingPathComponent("link").path, withDestinationPath: base.appendingPathComponent("notes").path)
        let notes = base.appendingPathComponent("notes").path
        let real = try Syscall.realPath(notes)
        #expect(try RelativePath.named("todos/a.md", in: notes) == (real, RelativePath("todos/a.md")))
        #expect(try RelativePath.named(base.appendingPathComponent("link/todos/a.md").path, in: notes) == (real, RelativePath("todos/a.md")))
        #expect(throws: RelativePath.NamingError.outside) { try RelativePath.named("../notes2/b.md", in: notes) }
        #expect(throws: RelativePath.NamingError.outside) { try RelativePath.named(".", in: notes) }
        #expect(throws: RelativePath.NamingError.noSuchFile) { try RelativePath.named("todos/none.md", in: notes) }
        #expect(throws: RelativePath.NamingError.folderMissing) { try RelativePath.named("a.md", in: base.appendingPathComponent("gone").path) }
    }
}
