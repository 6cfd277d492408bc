import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct ReadingListTests {
    @Test func booksAreAddedFinishedAndReadBackAsTheAppsOwnKind() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = ReadingList(store: store)
        #expect(await list.add(.init(title: "Dune", author: "Frank Herbert")).createdPath == "books/dune.md")
        #expect(await list.add(.init(title: "Emma", author: "Jane Austen")).createdPath == "books/emma.md")
        #expect(text(folder, "books/dune.md") == "---\nkind: book\ntitle: Dune\nauthor: Frank Herbert\nfinished: false\n---\n")
        #expect(await list.finish("books/dune.md", rating: 5).succeeded)
        #expect(text(folder, "books/dune.md") == "---\nkind: book\ntitle: Dune\nauthor: Frank Herbert\nfinished: true\nrating: 5\n---\n")
        #expect(list.toRead.map(\.title) == ["Emma"])
        let refused = await list.finish("books/emma.md", rating: 9)
        #expect(refused.errors.map(\.message) == ["cannot save the book: rating 9 is not from 1 to 5"])
        #expect(list.books == [.init(title: "Dune", author: "Frank Herbert", rating: 5, finished: true), .init(title: "Emma", author: "Jane Austen")])
    }

    /// The same kind declared in folio.yaml: a hand-written book in `books/` without
    /// `kind:` is a book, and the declaration's rules hold for it in the app too.
    @Test func theDeclaredKindHoldsForHandWrittenBooks() async throws {
        let (store, folder) = try await temporaryStore([
            "folio.yaml": ReadingList.declaration,
            "books/left-hand.md": "---\ntitle: The Left Hand of Darkness\nauthor: Ursula K. Le Guin\nfinished: yes\nrating: 4\n---\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = ReadingList(store: store)
        #expect(list.books.map(\.title) == ["The Left Hand of Darkness"])
        #expect(list.books.first?.finished == true)
        let refused = await store.dispatch(.records(.updateFields(path: "books/left-hand.md", setting: ["rating": .int(0)])))
        #expect(refused.errors.map(\.kind) == [.invalidRecord])
    }
}
