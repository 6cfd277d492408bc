// README.md's Swift snippet 1, as it is (.ci/snippets writes this file).
#if canImport(SwiftUI)
import Folio
import SwiftUI

@main struct Recipes: App {
    @State private var folder: SyncedFolder?

    var body: some Scene {
        WindowGroup {
            List(folder?.store.recipes ?? []) { recipe in Text(recipe.title) }
                .task { folder = try? await SyncedFolder.open(NSHomeDirectory() + "/Recipes") }
        }
    }
}
#endif
