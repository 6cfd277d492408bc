import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct RecipeBookTests {
    @Test func mockDataIsSavedAsMarkdownAndReadBack() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let book = RecipeBook(store: store)
        await book.addMockData()
        #expect(book.recipes.map(\.title) == ["Pasta alla Carbonara", "Tomato soup"])
        #expect(book.recipes == RecipeBook.mockRecipes)
        #expect(text(folder, "recipes/tomato-soup.md")?.hasPrefix("---\ntitle: Tomato soup\nkind: recipe\ntime: 30m\n---\nBright and quick.\n") == true)
        await book.addMockData()
        #expect(book.recipes.count == 2)
    }

    @Test func onlyARecipeWithTitleIngredientAndStepCanBeSaved() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let book = RecipeBook(store: store)
        let empty = Recipe(title: "Toast")
        #expect(!RecipeBook.canBeSaved(empty))
        let refused = await book.add(empty)
        #expect(refused.errors.map(\.kind) == [.invalidRecord, .invalidRecord] && book.recipes.isEmpty)
        let toast = Recipe(title: "Toast", ingredients: [Ingredient(name: "Bread")], steps: ["Toast it."])
        #expect(RecipeBook.canBeSaved(toast))
        #expect(await book.add(toast).createdPath == "recipes/toast.md")
    }

    @Test func anEditInAnyEditorReachesTheBook() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let book = RecipeBook(store: store)
        await book.addMockData()
        var options = WatchOptions()
        options.quietPeriod = .milliseconds(10)
        let watcher = FolderWatcher(store: store, options: options)
        try watcher.start()
        defer { watcher.stop() }
        let path = folder + "/recipes/tomato-soup.md"
        let edited = try #require(text(folder, "recipes/tomato-soup.md")).replacingOccurrences(of: "time: 30m", with: "time: 40m")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        await watcher.settle()
        #expect(book.recipes.first { $0.title == "Tomato soup" }?.time == TimeSpan("40m"))
    }
}
