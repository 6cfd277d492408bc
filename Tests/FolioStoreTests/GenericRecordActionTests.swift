import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore

/// The actions that work on a record of any kind (an app's own kinds use these): the
/// reducer alone first, then the store against a real folder.
@Suite struct GenericRecordActionTests {
    static let book = Kind(rawValue: "book")

    func text(_ outcome: Reducer.Outcome) -> String? {
        guard case .write(_, let bytes, _)? = outcome.effects.first else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aRecordOfAnAppsOwnKindIsAddedInItsFolderSayingItsKind() {
        var state = ReducerTests.state(adding: [:])
        let fields: YAMLMapping = ["title": .string("Dune"), "author": .string("Frank Herbert"), "rating": .int(9)]
        let outcome = Reducer.reduce(&state, .records(.addRecord(kind: Self.book, fields: fields, body: "A desert planet.\n")), contents: [:])
        #expect(outcome.errors.isEmpty)
        #expect(outcome.changes.added == ["books/dune.md"])
        #expect(outcome.effects.count == 1)
        guard case .write("books/dune.md", _, nil)? = outcome.effects.first else {
            Issue.record("not a new file's write: \(outcome.effects)")
            return
        }
        #expect(text(outcome) == "---\nkind: book\ntitle: Dune\nauthor: Frank Herbert\nrating: 9\n---\nA desert planet.\n")
        #expect(state["books/dune.md"]?.kind == Self.book)
        #expect(state["books/dune.md"]?.title == "Dune")
        // A built-in kind's folder says the kind already: no `kind:` key is added.
        let todo = Reducer.reduce(&state, .records(.addRecord(kind: .todo, fields: ["title": .string("Call Anna")])), contents: [:])
        #expect(todo.changes.added == ["todos/call-anna.md"])
        #expect(text(todo) == "---\ntitle: Call Anna\n---\n")
        // A second of the same name gets a name of its own.
        let again = Reducer.reduce(&state, .records(.addRecord(kind: Self.book, fields: fields)), contents: [:])
        #expect(again.changes.added == ["books/dune-2.md"])
    }

    @Test func aNoteIsAddedWithItsTitleAndBody() {
        var state = ReducerTests.state(adding: [:])
        let outcome = Reducer.reduce(&state, .addNote(title: "Groceries", body: "Eggs.\n"), contents: [:])
        #expect(outcome.changes.added == ["notes/groceries.md"])
        #expect(text(outcome) == "---\ntitle: Groceries\n---\nEggs.\n")
        #expect(state["notes/groceries.md"]?.kind == .note)
        #expect(state.document(at: "notes/groceries.md")?.body == "Eggs.\n")
    }

    @Test func aRecordValidationWarnsOfIsNotAdded() {
        var state = ReducerTests.state(adding: [:])
        let outcome = Reducer.reduce(&state, .records(.addRecord(kind: .todo, fields: ["title": .string("Call"), "due": .string("soon")])), contents: [:])
        #expect(outcome.effects.isEmpty && outcome.changes.isEmpty)
        #expect(outcome.errors.map(\.kind) == [.invalidRecord])
        #expect(outcome.errors.map(\.message) == ["cannot add the todo: 'soon' is not a date: write it as YYYY-MM-DD"])
    }

    @Test func severalFieldsAreSetAndRemovedInOneWrite() {
        var state = ReducerTests.state(adding: [:])
        let action = Action.records(.updateFields(path: "todos/milk.md", setting: ["priority": .int(5), "note": .string("oat")], removing: ["order", "absent"]))
        #expect(state.filesRead(by: action) == ["todos/milk.md"])
        let outcome = Reducer.reduce(&state, action, contents: state.readContents(for: action))
        #expect(outcome.errors.isEmpty)
        #expect(outcome.effects.count == 1)
        #expect(text(outcome) == "---\ntitle: Buy milk\ndate: 2026-11-28\ndone: false\npriority: 5\nnote: oat\n---\n")
        #expect(state["todos/milk.md"]?.priority == 5 && state["todos/milk.md"]?.order == nil)
    }

    /// An edit is refused for what it brings, not for what the record already had: a
    /// file with a bad date can still have another field fixed.
    @Test func anEditIsRefusedOnlyForTheProblemItBrings() {
        var state = ReducerTests.state(adding: ["todos/odd.md": "---\ntitle: Odd\ndue: someday\n---\n"])
        let bad = Action.records(.updateFields(path: "todos/milk.md", setting: ["date": .string("tomorrow")]))
        let refused = Reducer.reduce(&state, bad, contents: state.readContents(for: bad))
        #expect(refused.effects.isEmpty)
        #expect(refused.errors.map(\.kind) == [.invalidRecord])
        #expect(refused.errors.map(\.message) == ["cannot save the todo: 'tomorrow' is not a date: write it as YYYY-MM-DD"])
        #expect(state["todos/milk.md"]?.date == CalendarDate(year: 2026, month: 11, day: 28))
        let other = Action.records(.updateFields(path: "todos/odd.md", setting: ["priority": .int(2)]))
        let fixed = Reducer.reduce(&state, other, contents: state.readContents(for: other))
        #expect(fixed.errors.isEmpty)
        #expect(text(fixed) == "---\ntitle: Odd\ndue: someday\npriority: 2\n---\n")
    }

    @Test func aWholeContentReplaceIsGuardedByWhatWasRead() throws {
        var state = ReducerTests.state(adding: [:])
        let read = try #require(state["todos/bike.md"]).fingerprint
        let new = Array("---\ntitle: Fix the bike\n---\nPump the tyres.\n".utf8)
        let stale = Reducer.reduce(&state, .records(.replaceContent(path: "todos/bike.md", bytes: new, expecting: Fingerprint(Array("other".utf8)))), contents: [:])
        #expect(stale.errors.map(\.kind) == [.changedOnDisk] && stale.effects.isEmpty)
        let broken = Reducer.reduce(&state, .records(.replaceContent(path: "todos/bike.md", bytes: Array("---\ntitle: \"x\n---\n".utf8), expecting: read)), contents: [:])
        #expect(broken.errors.map(\.kind) == [.invalidEdit] && broken.effects.isEmpty)
        let done = Reducer.reduce(&state, .records(.replaceContent(path: "todos/bike.md", bytes: new, expecting: read)), contents: [:])
        #expect(done.errors.isEmpty)
        #expect(done.effects == [.write(path: "todos/bike.md", bytes: new, replacing: read)])
        #expect(state["todos/bike.md"]?.title == "Fix the bike")
    }

    // MARK: - The store, on disk

    @MainActor @Test func anAddNeverReplacesAFileTheStoreDidNotKnow() async throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        // Written behind the store's back, at the name the add will choose.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("books"), withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: folder.appendingPathComponent("books/dune.md"))
        let result = await store.dispatch(.records(.addRecord(kind: Self.book, fields: ["title": .string("Dune")])))
        #expect(result.errors.map(\.kind) == [.changedOnDisk])
        #expect(try String(contentsOf: folder.appendingPathComponent("books/dune.md"), encoding: .utf8) == "mine\n")
        // The store follows the disk: it holds the file that is there.
        #expect(store.state["books/dune.md"]?.title == "dune")
        let second = await store.dispatch(.records(.addRecord(kind: Self.book, fields: ["title": .string("Dune")])))
        #expect(second.errors.isEmpty && second.createdPath == "books/dune-2.md")
        #expect(try String(contentsOf: folder.appendingPathComponent("books/dune-2.md"), encoding: .utf8) == "---\nkind: book\ntitle: Dune\n---\n")
    }

    /// An app's word about the disk is checked: a file said to be there that is not makes
    /// no record, and the bytes held are the disk's, not those said.
    @MainActor @Test func aDiskChangeSentByAnAppIsCheckedAgainstTheDisk() async throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let ghost = await store.dispatch(.fileChanged(path: "todos/ghost.md", bytes: Array("---\ntitle: Ghost\n---\n".utf8)))
        #expect(ghost.succeeded && ghost.changes.isEmpty)
        #expect(store.state["todos/ghost.md"] == nil)
        try Data("---\ntitle: Real\n---\n".utf8).write(to: folder.appendingPathComponent("todos/real.md"))
        let real = await store.dispatch(.fileChanged(path: "todos/real.md", bytes: Array("---\ntitle: Said\n---\n".utf8)))
        #expect(real.changes.added == ["todos/real.md"])
        #expect(store.state["todos/real.md"]?.title == "Real")
        // A removal said of a file still there removes nothing.
        let kept = await store.dispatch(.fileRemoved(path: "todos/real.md"))
        #expect(kept.changes.isEmpty && store.state["todos/real.md"] != nil)
    }
}
