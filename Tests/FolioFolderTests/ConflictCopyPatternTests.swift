import Testing
import FolioFolder

/// `folio.yaml`'s `conflictCopies:`: the tools' patterns and one's own, what each takes
/// for a copy and what it leaves, and the entries that are no pattern.
@Suite struct ConflictCopyPatternTests {
    static func names(_ declared: String...) -> ConflictCopyNames { ConflictCopyNames(declared: declared) }

    @Test(arguments: [
        ("onedrive", "recipes/soup-DESKTOP-AB12CD.md", "recipes/soup.md"),
        ("OneDrive", "my-notes-LAPTOP7.md", "my-notes.md"),
        ("icloud", "recipes/soup 2.md", "recipes/soup.md"),
        ("icloud", "Leek soup 3.md", "Leek soup.md"),
        ("google-drive", "recipes/soup (1).md", "recipes/soup.md"),
        ("Google Drive", "todo (12)", "todo"),
        ("{name}.conflict-*{ext}", "soup.conflict-phone.md", "soup.md"),
        ("{name} [{machine}]{ext}", "soup [MAC-MINI].md", "soup.md"),
    ])
    func eachPatternFindsTheOriginal(declared: String, copy: String, original: String) {
        #expect(Self.names(declared).original(of: copy) == original)
        #expect(Self.names(declared).originalOfAnyCopy(copy) == original)
    }

    @Test(arguments: [
        ("onedrive", "notes-2024.md"), ("onedrive", "soup-and-bread.md"), ("onedrive", "soup-.md"), ("onedrive", "-DESKTOP1.md"),
        ("icloud", "Route 0.md"), ("icloud", "notes 2024.md"), ("icloud", "soup2.md"), ("icloud", " 2.md"),
        ("google-drive", "soup (one).md"), ("google-drive", "soup(1).md"), ("google-drive", "soup (0).md"),
        ("{name}.conflict-*{ext}", "soup.conflict-.md"), ("{name}.conflict-*{ext}", "soup.md"),
    ])
    func namesThePatternDoesNotFitAreFiles(declared: String, name: String) {
        #expect(Self.names(declared).original(of: name) == nil)
    }

    /// Without a declaration, none of these is a copy: they are names people give files.
    @Test(arguments: ["soup 2.md", "soup (1).md", "soup-DESKTOP-AB12CD.md", "notes-2024.md", "soup.conflict-phone.md"])
    func undeclaredTheyAreOrdinaryNames(name: String) {
        #expect(ConflictCopyNames.builtIn.original(of: name) == nil)
        #expect(ConflictCopyNames.builtIn.originalOfAnyCopy(name) == nil)
        #expect(Self.names().original(of: name) == nil)
    }

    @Test func theBuiltInNamesStayWhatEverDeclaration() {
        let names = Self.names("icloud")
        #expect(names.original(of: "soup.sync-conflict-20261130-120000-ABCDEF1.md") == "soup.md")
        #expect(names.rootOriginal(of: "soup 2 2.md") == "soup.md")
    }

    @Test func entriesThatAreNoPatternSayWhy() {
        let names = Self.names("dropbox-ish", "{name}", "{name}{nope}.md", "{name} {n}/x{ext}", "{name}-{name}", "{name", "icloud")
        #expect(names.patterns.map(\.declared) == ["icloud"])
        #expect(names.problems.map(\.description) == [
            "conflictCopies: 'dropbox-ish' is not a pattern: it needs {name} once (the original's name), or one of the tools: onedrive, icloud, google-drive",
            "conflictCopies: '{name}' is not a pattern: it must add something to the name, or every file would be a copy of itself",
            "conflictCopies: '{name}{nope}.md' is not a pattern: '{nope}' is not one of {name}, {ext}, {n}, {machine}",
            "conflictCopies: '{name} {n}/x{ext}' is not a pattern: a copy is in its file's folder: '/' cannot be in the pattern",
            "conflictCopies: '{name}-{name}' is not a pattern: it needs {name} once (the original's name), or one of the tools: onedrive, icloud, google-drive",
            "conflictCopies: '{name' is not a pattern: a '{' is not closed",
        ])
    }
}
