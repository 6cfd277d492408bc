import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct ShoppingListTests {
    @Test func anItemTickedOffAtOnceAndRenamedOnTheOtherPhoneFoldsIntoOne() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-shopping-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/phone", withIntermediateDirectories: true)
        let list = try await ShoppingList(root + "/phone", state: root + "/state")
        defer { list.close() }
        let path = try #require(await list.add(Item("Milk", quantity: "1 l")).createdPath)
        let added = try #require(text(root + "/phone", path))
        #expect(await list.toggle(path).errors.isEmpty)
        #expect(list.items.values == [Item("Milk", quantity: "1 l", done: true)])
        // The other phone had the item as added and made it oat milk; Syncthing kept both.
        let copy = "shopping/milk.sync-conflict-20261207-101500-PHONE22.md"
        try Data(added.replacingOccurrences(of: "title: Milk", with: "title: Oat milk").utf8).write(to: URL(fileURLWithPath: root + "/phone/" + copy))
        await list.settle()
        #expect(list.items.values == [Item("Oat milk", quantity: "1 l", done: true)])
        #expect(list.conflicts.isEmpty && !FileManager.default.fileExists(atPath: root + "/phone/" + copy))
    }
}
