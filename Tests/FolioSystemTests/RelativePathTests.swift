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
}
