import Foundation
import FolioTestSupport
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

    /// The list in docs/cli.md ("what editors and tools write while saving") names only
    /// what the rules keep out: each name there, made concrete, is never a record.
    @Test func theDocumentedScratchFilesAreTheOnesKeptOut() throws {
        let text = try String(contentsOf: Corpora.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let start = try #require(text.range(of: "what editors and tools write while saving"))
        let end = try #require(text.range(of: "Symbolic links are never followed", range: start.upperBound..<text.endIndex))
        let names = text[start.upperBound..<end.lowerBound].split(separator: "`", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            // Folders (`.stversions/`) and the tools named in code (`sed -i`) are not file names.
            .filter { !$0.hasSuffix("/") && !$0.contains(" ") }
        #expect(names.count >= 16, "names found: \(names)")
        for pattern in names {
            // `.swp` stands for `.name.swp`; `name`, `*` and `XXXXXX` for a file's name and mkstemp's letters.
            var name = pattern.replacingOccurrences(of: "name", with: "soup.md").replacingOccurrences(of: "XXXXXX", with: "K3ZQ1Y")
                .replacingOccurrences(of: "*", with: "soup.md")
            if pattern.hasPrefix("."), pattern.count <= 4 { name = ".soup.md" + pattern }
            #expect(FolderRules.isIgnoredFile(name), "docs/cli.md lists \(pattern) (as \(name)), which the rules would keep")
        }
    }
}
