import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore
@testable import FolioSystem

/// The events `folio watch` tells, from the changes the reducer reports: in memory, the
/// disk's changes given to the reducer as the watcher would give them.
@Suite struct RecordChangeTrackerTests {
    static let files: [String: String] = [
        "recipes/carbonara.md": "---\ntitle: Carbonara\ntime: 15m\ntags: [pasta]\n---\nCook.\n",
        "drafts/soup.md": "---\ntitle: Soup\n---\n",
        "todos/milk.md": "---\ntitle: Milk\ndone: false\n---\n",
    ]

    /// A state of ``files``, and a tracker that has seen it.
    func start() -> (StoreState, RecordChangeTracker) {
        let state = StoreState(files: Self.files.mapValues { Array($0.utf8) })
        return (state, RecordChangeTracker(state: state))
    }

    /// The events that tell `change`, once the reducer applied it to `state`.
    func events(_ change: DiskChange, _ state: inout StoreState, _ tracker: inout RecordChangeTracker) -> [RecordChangeEvent] {
        let outcome = Reducer.reduce(&state, .disk(change))
        return tracker.events(for: outcome.changes, in: state)
    }

    @Test func aMoveIsToldWithTheTitleAndKindWhereItLanded() {
        var (state, tracker) = start()
        let bytes = Array(Self.files["drafts/soup.md"]!.utf8)
        // Into recipes/, a note becomes a recipe.
        #expect(events(.fileMoved(from: "drafts/soup.md", to: "recipes/soup.md", bytes: bytes), &state, &tracker)
            == [.moved(from: "drafts/soup.md", to: "recipes/soup.md", title: "Soup", kind: .recipe)])
        // Where it landed is gone by the time the change is told: no title, no kind.
        var moved = ChangeSet()
        moved.moved = [.init(from: "recipes/soup.md", to: "recipes/stew.md")]
        #expect(tracker.events(for: moved, in: state) == [.moved(from: "recipes/soup.md", to: "recipes/stew.md", title: nil, kind: nil)])
    }

    @Test func aMovedFileThatDoesNotParseHasATitleButNoKind() {
        var (state, tracker) = start()
        let broken = Array("---\ntitle: \"Soup\n---\n".utf8)
        _ = events(.fileChanged(path: "drafts/soup.md", bytes: broken), &state, &tracker)
        #expect(events(.fileMoved(from: "drafts/soup.md", to: "recipes/soup.md", bytes: broken), &state, &tracker)
            == [.moved(from: "drafts/soup.md", to: "recipes/soup.md", title: "soup.md", kind: nil)])
    }

    @Test func aRemovalIsToldByItsPath() {
        var (state, tracker) = start()
        #expect(events(.fileRemoved(path: "todos/milk.md"), &state, &tracker) == [.removed(path: "todos/milk.md")])
        // A file the store never held is no change at all.
        #expect(events(.fileRemoved(path: "todos/bread.md"), &state, &tracker).isEmpty)
    }

    @Test func anUpdateTellsTheOneFieldThatChanged() {
        var (state, tracker) = start()
        let edited = Self.files["recipes/carbonara.md"]!.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        #expect(events(.fileChanged(path: "recipes/carbonara.md", bytes: Array(edited.utf8)), &state, &tracker)
            == [.updated(path: "recipes/carbonara.md", title: "Carbonara", changes: [.init(key: "time", old: .string("15m"), new: .string("20m"))])])
        // Against what was last told: the next edit starts from 20m. A field added, one
        // removed (after the others), and the body alone.
        let again = edited.replacingOccurrences(of: "time: 20m\ntags: [pasta]\n", with: "servings: 2\ntime: 25m\n")
        #expect(events(.fileChanged(path: "recipes/carbonara.md", bytes: Array(again.utf8)), &state, &tracker)
            == [.updated(path: "recipes/carbonara.md", title: "Carbonara", changes: [
                .init(key: "servings", old: nil, new: .int(2)), .init(key: "time", old: .string("20m"), new: .string("25m")),
                .init(key: "tags", old: .sequence([.string("pasta")]), new: nil),
            ])])
        #expect(events(.fileChanged(path: "recipes/carbonara.md", bytes: Array((again + "Stir.\n").utf8)), &state, &tracker)
            == [.updated(path: "recipes/carbonara.md", title: "Carbonara", changes: [])])
    }

    /// `folio watch` gives the files its load read: their front-matter blocks are what
    /// the first update is compared with.
    @Test func theFieldsBeforeComeFromTheReadsWhenGiven() {
        let stamp = FileStamp(size: 0, modified: 0, changed: 0, inode: 1, type: .regular, permissions: 0o644)
        var state = StoreState(files: Self.files.mapValues { Array($0.utf8) })
        let reads = Self.files.map { FileRead(path: $0.key, bytes: Array($0.value.utf8), stamp: stamp) }
        var tracker = RecordChangeTracker(state: state, reads: reads)
        let done = Self.files["todos/milk.md"]!.replacingOccurrences(of: "done: false", with: "done: true")
        #expect(events(.fileChanged(path: "todos/milk.md", bytes: Array(done.utf8)), &state, &tracker)
            == [.updated(path: "todos/milk.md", title: "Milk", changes: [.init(key: "done", old: .bool(false), new: .bool(true))])])
    }

    @Test func aFileThatDoesNotParseIsToldWithItsErrorAndForgotten() throws {
        var (state, tracker) = start()
        let broken = Array("---\ntitle: \"Carbonara\ntime: 15m\n---\n".utf8)
        let told = events(.fileChanged(path: "recipes/carbonara.md", bytes: broken), &state, &tracker)
        let error = try #require(state["recipes/carbonara.md"]?.error)
        #expect(told == [.invalid(path: "recipes/carbonara.md", error: error)])
        #expect(error.kind == .unterminatedQuote)
        // Its fields before are forgotten: once fixed, every field is new.
        let fixed = Array("---\ntitle: Carbonara\ntime: 15m\n---\n".utf8)
        #expect(events(.fileChanged(path: "recipes/carbonara.md", bytes: fixed), &state, &tracker)
            == [.updated(path: "recipes/carbonara.md", title: "Carbonara", changes: [
                .init(key: "title", old: nil, new: .string("Carbonara")), .init(key: "time", old: nil, new: .string("15m")),
            ])])
    }

    @Test func anAdditionAndTheSettingsAreToldAfterTheRest() {
        var (state, tracker) = start()
        var changes = Reducer.reduce(&state, .disk(.fileChanged(path: "todos/bread.md", bytes: Array("---\ntitle: Bread\n---\n".utf8)))).changes
        changes.append(Reducer.reduce(&state, .settingsFileChanged(bytes: Array("sleepGoal: 8\n".utf8))).changes)
        changes.append(Reducer.reduce(&state, .disk(.fileRemoved(path: "todos/milk.md"))).changes)
        #expect(tracker.events(for: changes, in: state) == [.removed(path: "todos/milk.md"), .added(path: "todos/bread.md", title: "Bread"), .settingsChanged])
    }
}
