import Testing
@testable import FolioFolder

/// Which names are never synced or indexed.
@Suite struct FolderRulesTests {
    @Test(arguments: [
        ".soup.md.swp", "4913", "soup.md~", ".#soup.md", "#soup.md#",
        ".soup.md.kate-swp", ".~lock.soup.md#", ".goutputstream-K3ZQ1Y", "sedAb12Cd", "sed4xYz9Q",
        "soup.md___jb_tmp___", "soup.md___jb_old___", ".syncthing.soup.md.tmp", ".DS_Store",
    ])
    func editorsAndToolsScratchFilesAreNeverRecords(name: String) {
        #expect(FolderRules.isIgnoredFile(name))
        #expect(!FolderRules.isMarkdown(name))
    }

    @Test(arguments: ["soup.md", "sedentary", "sedimental.md", "sed.md", "lock.md", "jb_tmp.md", "goutputstream.md", "kate-swp.md"])
    func ordinaryNamesStayRecordsOrFiles(name: String) {
        #expect(!FolderRules.isIgnoredFile(name))
    }
}
