@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
import Testing

@Suite struct SyncPathTests {
    @Test func aFolderIsSpelledWithItsSlashAndOpenedWithout() {
        let folder = SyncPath(folder: "notes/deep")
        #expect(folder.key == "notes/deep/")
        #expect(folder.isFolder && !folder.isFile)
        #expect(folder.relative == "notes/deep")
        let file = SyncPath(file: "notes/deep/a.md")
        #expect(file.key == "notes/deep/a.md" && file.isFile && file.relative == "notes/deep/a.md")
        #expect(SyncPath(folder: "") == .root && SyncPath.root.isFolder && SyncPath.root.relative == "")
        #expect(SyncPath(key: "notes/") == SyncPath(folder: "notes"))
        #expect(SyncPath(file: "notes") != SyncPath(folder: "notes"))
    }

    @Test func ancestorsAreTheFoldersAboveOutermostFirst() {
        #expect(SyncPath(file: "a/b/c.md").ancestors == [SyncPath(folder: "a"), SyncPath(folder: "a/b")])
        #expect(SyncPath(folder: "a/b").ancestors == [SyncPath(folder: "a")])
        #expect(SyncPath(file: "top.md").ancestors == [])
        // Found by bytes: a name of several bytes per letter, or one a combining accent
        // follows, splits where its slashes are.
        #expect(SyncPath(file: "ricette/crème/bru\u{0301}lée.md").ancestors == [SyncPath(folder: "ricette"), SyncPath(folder: "ricette/crème")])
        #expect(SyncPath(folder: "日本/料理").ancestors == [SyncPath(folder: "日本")])
    }

    @Test func insideMeansBelowAFolderNotBesideIt() {
        let notes = SyncPath(folder: "notes")
        #expect(SyncPath(file: "notes/a.md").isInside(notes))
        #expect(SyncPath(folder: "notes/deep").isInside(notes))
        #expect(!notes.isInside(notes))
        #expect(!SyncPath(file: "notes.md").isInside(notes))
        #expect(!SyncPath(file: "notes2/a.md").isInside(notes))
        #expect(!SyncPath(file: "notes/a.md").isInside(SyncPath(file: "notes")))
        #expect(SyncPath(file: "top.md").isInside(.root))
    }

    /// The archive is written sorted by its spelling, and the plan settles paths in that
    /// order: the type must sort as the strings do (a folder just before what it holds).
    @Test func theOrderIsTheArchiveSpellingsOrder() {
        var random = SystemRandomNumberGenerator()
        let names = ["a", "a.md", "a/", "a/b.md", "a-b/", "B.md", "é.md", "e\u{301}x.md", "z/", ""]
        for _ in 0..<50 {
            let keys = names.shuffled(using: &random)
            #expect(keys.map(SyncPath.init(key:)).sorted().map(\.key) == keys.sorted())
        }
    }

    /// Two spellings of one name in different Unicode normalizations are one path, as
    /// they are one `String` key.
    @Test func canonicallyEquivalentSpellingsAreOnePath() {
        let nfc = SyncPath(file: "caf\u{E9}.md"), nfd = SyncPath(file: "cafe\u{301}.md")
        #expect(nfc == nfd && nfc.hashValue == nfd.hashValue)
        #expect(Set([nfc, nfd]).count == 1)
    }
}
