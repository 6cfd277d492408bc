import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct ConflictInboxTests {
    @Test func aClashIsShownAndSettledWithTheLoserInTheTrash() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-inbox-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let copy = "recipes/soup.sync-conflict-20261130-120000-PHONE12.md"
        for (path, text) in ["recipes/soup.md": "---\ntitle: Soup\ntime: 20m\n---\nHot.\n", copy: "---\ntitle: Soup\ntime: 25m\n---\nHot.\n"] {
            try FileManager.default.createDirectory(atPath: root + "/shared/recipes", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/shared/" + path))
        }
        var fold = FoldOptions()
        fold.stateDirectory = root + "/state"
        let folder = try await SyncedFolder.open(root + "/shared", foldOptions: fold)
        defer { folder.close() }
        let inbox = ConflictInbox(folder: folder)
        let items = try await inbox.items()
        #expect(items == [.init(copy: copy, file: "recipes/soup.md", clashes: ["time: 20m | 25m"], willFold: false)])
        // The recipe list shows the soup once.
        #expect(folder.store.recipes.map(\.path) == ["recipes/soup.md"])
        try await inbox.keep(items[0], copy: true)
        #expect(String(decoding: FileManager.default.contents(atPath: root + "/shared/recipes/soup.md") ?? Data(), as: UTF8.self).contains("time: 25m"))
        #expect(try await inbox.items().isEmpty)
        #expect(Set(folder.store.trashedFiles().map(\.path)) == ["recipes/soup.md", copy])
    }
}
