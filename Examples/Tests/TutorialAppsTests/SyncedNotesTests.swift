import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct SyncedNotesTests {
    @Test func aNoteTravelsBothWaysAndTheAppKnowsWhichCameFromTheReplica() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["laptop", "stick"] { try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        let app = try await SyncedNotes(root + "/laptop", replica: root + "/stick", state: root + "/state")
        defer { app.close() }
        #expect(await app.add("Groceries", "Eggs.\n").createdPath == "notes/groceries.md")
        _ = await app.syncNow()
        #expect(FileManager.default.contents(atPath: root + "/stick/notes/groceries.md").map { String(decoding: $0, as: UTF8.self) }
                == "---\ntitle: Groceries\n---\nEggs.\n")
        try FileManager.default.createDirectory(atPath: root + "/stick/notes", withIntermediateDirectories: true)
        try Data("---\ntitle: From the stick\n---\n".utf8).write(to: URL(fileURLWithPath: root + "/stick/notes/stick.md"))
        _ = await app.syncNow()
        #expect(app.notes.results.map(\.title) == ["Groceries", "From the stick"])
        for _ in 0..<2_000 where app.fromReplica.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(app.fromReplica == ["notes/stick.md"])
        #expect(app.folder.isReady)
    }
}
