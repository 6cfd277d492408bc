import Testing
@testable import FolioFormat
@testable import FolioStore

/// Deciding by content what changed: the snapshot is the only view of the disk.
@Suite struct ReconcileTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    let state = StoreState(files: [
        "todos/a.md": Array("---\ntitle: A\n---\n".utf8),
        "todos/b.md": Array("---\ntitle: B\n---\n".utf8),
        "todos/old/c.md": Array("---\ntitle: C\n---\n".utf8),
        "notes/n.md": Array("hello\n".utf8),
    ])

    func describe(_ actions: [Action]) -> [String] {
        actions.map {
            switch $0 {
            case .disk(.fileChanged(let path, _)): "changed \(path)"
            case .disk(.fileRemoved(let path)): "removed \(path)"
            case .disk(.fileMoved(let from, let to, _)): "moved \(from) → \(to)"
            case .disk(.settingsFileChanged(let bytes)): "settings \(bytes?.count ?? -1)"
            case .todos, .workouts, .records: "other"
            }
        }
    }

    @Test func unchangedBytesGiveNoAction() {
        let snapshot = DiskSnapshot(entries: ["todos/a.md": .file(bytes("---\ntitle: A\n---\n"))])
        #expect(state.actions(toMatch: snapshot).isEmpty)
    }

    /// The same bytes under the other spelling of the name (NFC for NFD: equal as
    /// Swift Strings) are another file: the one held goes, the one there comes.
    @Test func theSameBytesRespelledAreAnotherFile() {
        var state = StoreState(files: ["cafe\u{301}.md": []])
        let actions = state.actions(toMatch: DiskSnapshot(entries: ["caf\u{E9}.md": .file([])]))
        #expect(describe(actions).map { Array($0.utf8) } == [Array("changed caf\u{E9}.md".utf8)])
        var changes = ChangeSet()
        for action in actions { changes.append(Reducer.reduce(&state, action).changes) }
        #expect(changes.removed.map { Array($0.utf8) } == [Array("cafe\u{301}.md".utf8)])
        #expect(changes.added.map { Array($0.utf8) } == [Array("caf\u{E9}.md".utf8)])
        #expect(state.records.values.map { Array($0.path.utf8) } == [Array("caf\u{E9}.md".utf8)])
    }

    @Test func changedMissingAndUnreadable() {
        let snapshot = DiskSnapshot(entries: [
            "todos/a.md": .file(bytes("---\ntitle: A2\n---\n")),
            "todos/b.md": .missing,
            "notes/n.md": .unreadable(.init(operation: .read, path: "notes/n.md", code: 13)),
        ])
        #expect(describe(state.actions(toMatch: snapshot)) == ["changed todos/a.md", "removed todos/b.md"])
    }

    @Test func aMoveIsAMoveOnlyWhenTheBytesSaySo() {
        let moved = DiskSnapshot(entries: ["todos/a.md": .missing, "todos/z.md": .file(bytes("---\ntitle: A\n---\n"))])
        #expect(describe(state.actions(toMatch: moved)) == ["moved todos/a.md → todos/z.md"])
        let edited = DiskSnapshot(entries: ["todos/a.md": .missing, "todos/z.md": .file(bytes("---\ntitle: A!\n---\n"))])
        #expect(describe(state.actions(toMatch: edited)) == ["changed todos/z.md", "removed todos/a.md"])
    }

    @Test func aFolderReadReplacesWhatWasUnderIt() {
        let renamed = DiskSnapshot(entries: [
            "todos/old": .missing,
            "todos/new": .folder(["todos/new/c.md": bytes("---\ntitle: C\n---\n"), "todos/new/d.md": bytes("x\n")]),
        ])
        #expect(describe(state.actions(toMatch: renamed)) == ["moved todos/old/c.md → todos/new/c.md", "changed todos/new/d.md"])
        let emptied = DiskSnapshot(entries: ["todos": .folder([:])])
        #expect(describe(state.actions(toMatch: emptied)) == ["removed todos/a.md", "removed todos/b.md", "removed todos/old/c.md"])
    }

    @Test func scratchFilesAndIgnoredFoldersAreNeverRecords() {
        let snapshot = DiskSnapshot(entries: [
            "todos/a.md~": .file(bytes("x")), "todos/.a.md.swp": .file(bytes("x")), "todos/4913": .file(bytes("")),
            "todos/#a.md#": .file(bytes("x")), "todos/.#a.md": .file(bytes("x")), "todos/a.md___jb_tmp___": .file(bytes("x")),
            "todos/.subl5f3.tmp": .file(bytes("x")), ".git/x.md": .file(bytes("x")),
        ])
        #expect(state.actions(toMatch: snapshot).isEmpty)
    }

    @Test func settingsFollowFolioYAML() {
        #expect(describe(state.actions(toMatch: DiskSnapshot(entries: ["folio.yaml": .file(bytes("a: 1\n"))]))) == ["settings 5"])
        #expect(state.actions(toMatch: DiskSnapshot(entries: ["folio.yaml": .missing])).isEmpty)
    }

    @Test func theRootReadIsAFullRescan() {
        let snapshot = DiskSnapshot(entries: ["": .folder(["todos/a.md": bytes("---\ntitle: A\n---\n")])])
        #expect(describe(state.actions(toMatch: snapshot)) == ["removed notes/n.md", "removed todos/b.md", "removed todos/old/c.md"])
    }

    @Test func anUnreadableSubfolderIsLeftAsItWas() {
        let snapshot = DiskSnapshot(entries: [
            "todos": .folder(["todos/a.md": bytes("---\ntitle: A\n---\n")]),
            "todos/old": .unreadable(.init(operation: .openDirectory, path: "todos/old", code: 13)),
        ])
        #expect(describe(state.actions(toMatch: snapshot)) == ["removed todos/b.md"])
    }
}
