import Testing
@testable import FolioFolder

@Suite struct ConflictCopiesTests {
    @Test(arguments: [
        ("recipes/soup.sync-conflict-20261130-120000-ABCDEF1.md", "recipes/soup.md"),
        ("soup.sync-conflict-20261130-120000-7XQ4ZZZ", "soup"),
        ("recipes/soup (Anna's conflicted copy 2026-11-30).md", "recipes/soup.md"),
        ("soup (conflicted copy 2026-11-30 120000).md", "soup.md"),
        // Seafile's (with the modifier, without it, and after the extension as its help shows it).
        ("recipes/soup (SFConflict anna@example.com 2026-12-04-10-10-10).md", "recipes/soup.md"),
        ("soup (SFConflict 2026-12-04-10-10-10).md", "soup.md"),
        ("soup.md (SFConflict anna@example.com 2026-12-04-10-10-10)", "soup.md"),
        // ownCloud's older clients'.
        ("recipes/soup_conflict-20261204-101010.md", "recipes/soup.md"),
        ("my_soup_conflict-20261204-101010", "my_soup"),
        // FileCloud's, a user's name with parentheses in it too.
        ("recipes/soup(Conflict_anna (Web browser)_2026-12-04-10-10-10).md", "recipes/soup.md"),
        ("soup(Conflict_Read-Only_2026-12-04-10-10-10).md", "soup.md"),
    ])
    func recognised(copy: String, original: String) {
        #expect(ConflictCopies.original(of: copy) == original)
    }

    @Test(arguments: [
        "recipes/soup.md", "soup.sync-conflict-2026-laptop.md", "soup.sync-conflict-20261130-120000-laptop.md",
        "soup (copy).md", "(conflicted copy).md",
        // Ordinary names, and names other tools give that an ordinary name can have too.
        "soup 2.md", "soup (1).md", "notes-2024.md", "soup-DESKTOP-AB12CD.md", "conflict-resolution.md",
        "soup_conflict-2026.md", "soup (SFConflict notes).md", "soup(Conflict_anna).md", "(SFConflict a 2026-12-04-10-10-10).md",
        "_conflict-20261204-101010.md",
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
