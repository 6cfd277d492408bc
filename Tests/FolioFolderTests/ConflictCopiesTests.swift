import Testing
@testable import FolioFolder

@Suite struct ConflictCopiesTests {
    @Test(arguments: [
        ("recipes/soup.sync-conflict-20261130-120000-ABCDEF1.md", "recipes/soup.md"),
        ("soup.sync-conflict-20261130-120000-7XQ4ZZZ", "soup"),
        ("recipes/soup (Anna's conflicted copy 2026-11-30).md", "recipes/soup.md"),
        ("soup (conflicted copy 2026-11-30 120000).md", "soup.md"),
    ])
    func recognised(copy: String, original: String) {
        #expect(ConflictCopies.original(of: copy) == original)
    }

    @Test(arguments: [
        "recipes/soup.md", "soup.sync-conflict-2026-laptop.md", "soup.sync-conflict-20261130-120000-laptop.md",
        "soup (copy).md", "(conflicted copy).md",
    ])
    func notRecognised(name: String) {
        #expect(ConflictCopies.original(of: name) == nil)
    }

    @Test func folioCopiesToo() {
        #expect(ConflictCopies.originalOfAnyCopy("recipes/soup.sync-conflict-20261130-120000-laptop-2.md") == "recipes/soup.md")
        #expect(ConflictCopies.originalOfAnyCopy("recipes/soup (Anna's conflicted copy).md") == "recipes/soup.md")
        #expect(ConflictCopies.originalOfAnyCopy("recipes/soup.md") == nil)
    }
}
