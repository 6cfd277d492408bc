import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel
@testable import FolioStore
@testable import FolioSystem

/// The store on real folders: each test copies Fixtures/ into a fresh temporary folder.
@MainActor
@Suite struct StoreTests {
    func fixturesCopy() throws -> URL { try Fixtures.temporaryCopy() }

    func text(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func loadsEveryFile() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(store.state.records.count == 34)
        #expect(store.state.todos.count == 12)
        #expect(store.state.workouts.count == 12)
        #expect(store.state.records(of: .recipe).count == 4)
        #expect(store.state.invalidRecords.isEmpty)
        store.state._checkInvariants()
    }

    /// `Store.load(root)` as apps wrote it before there was a trash still compiles with
    /// FolioStore alone, and deletes what it removes (no keeper), as it did then.
    @Test func loadWithoutAKeeperDeletesWhatItRemoves() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path)
        #expect(store.removedFiles == nil)
        let path = try #require(store.state.todos.first?.path)
        #expect(await store.dispatch(.removeRecord(path: path)).errors.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path))
    }

    /// A load that keeps its reads gives every record file once, in path order, with the
    /// bytes and stamp it read (for the history's first record); a source without stamps
    /// (memory) gives none, and a plain load keeps nothing.
    @Test func aLoadKeepingItsReadsGivesEachFileAsRead() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (store, reads) = try await Store.loadKeepingReads(folder.path, removedFiles: nil)
        #expect(reads.map(\.path) == store.state.records.keys.sorted())
        let root = try RootedFolder(folder.path)
        for read in reads {
            #expect(read.bytes == Array(try Data(contentsOf: folder.appendingPathComponent(read.path))), "\(read.path)")
            #expect(read.stamp == (try FileStamp.of(root[read.path])), "\(read.path)")
        }
        #expect(try await Store.loadKeepingReads(folder.path, removedFiles: nil, keepingReads: false).reads.isEmpty)
        let files = ["a.md": Array("---\ntitle: A\n---\n".utf8)]
        #expect(StoreState.load(paths: ["a.md"], from: MemorySource(files), folders: [:], keepingReads: true).2.isEmpty)
    }

    @Test func whatTheWatcherReadsIsNotHeldTwice() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let edited = Array("---\ntitle: Buy oat milk\ndone: false\n---\n".utf8)
        try Data(edited).write(to: folder.appendingPathComponent("todos/buy-milk.md"))
        try Data(edited).write(to: folder.appendingPathComponent("todos/new.md"))
        store.apply(DiskSnapshot(entries: ["todos/buy-milk.md": .file(edited), "todos/new.md": .file(edited)]))
        #expect(store.state["todos/buy-milk.md"]?.title == "Buy oat milk" && store.state["todos/new.md"] != nil)
        // The bytes are on disk: the state reads them from there, and holds no copy of its own.
        #expect(store.state.pending.isEmpty)
        #expect(store.state.document(of: store.state["todos/new.md"]!)?.bytes == edited)
        #expect(await store.dispatch(.toggleDone(path: "todos/new.md")).succeeded)
        #expect(store.state.pending.isEmpty)
    }

    @Test func theDiskIsWrittenOffTheMainActorAndTheStateChangesAtOnce() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let path = "todos/buy-milk.md", before = try text(folder, path)
        final class Gate: @unchecked Sendable {
            // Every field guarded by `lock`; `open` is waited on by the store's disk queue only.
            let lock = NSLock(), open = DispatchSemaphore(value: 0)
            var reached = false, onMainThread = true
            func pause() {
                lock.withLock { (reached, onMainThread) = (true, Thread.isMainThread) }
                open.wait()
            }
            var wasReached: Bool { lock.withLock { reached } }
        }
        let gate = Gate()
        // The store's write stops before its rename until the test lets it go.
        let plan = FaultInjection(beforeCall: { operation, target in
            if operation == .rename, target.hasSuffix(path) { gate.pause() }
        })
        let task = FaultInjection.$current.withValue(plan) { store.send(.toggleDone(path: path)) }
        var waited = 0
        while !gate.wasReached && waited < 5_000 {
            try await Task.sleep(for: .milliseconds(1))
            waited += 1
        }
        // The write is stuck on the disk queue, yet this main-actor test runs, and the state already says done.
        #expect(gate.wasReached && !gate.lock.withLock { gate.onMainThread })
        #expect(store.state[path]?.done == true)
        #expect(try text(folder, path) == before)
        // The watcher reads the file before the write lands: that old read does not undo the state.
        store.apply(DiskSnapshot(entries: [path: .file(Array(before.utf8))]))
        #expect(store.state[path]?.done == true)
        gate.open.signal()
        #expect(await task.value.succeeded)
        #expect(try text(folder, path).contains("done: true"))
        #expect(store.state[path]?.done == true)
    }

    @Test func anEditSavedBetweenTheStoresCheckAndItsRenameStays() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let path = "todos/buy-milk.md", full = folder.appendingPathComponent(path).path
        let edit = "---\ntitle: Buy oat milk\ndone: false\n---\n"
        // The editor saves right before the store's rename (after its check).
        let saving = FaultInjection(beforeCall: { operation, target in
            guard operation == .rename, target == full, !FileManager.default.fileExists(atPath: full + ".editor") else { return }
            _ = FileManager.default.createFile(atPath: full + ".editor", contents: Data(edit.utf8))
            _ = FileManager.default.createFile(atPath: full + ".saving", contents: Data(edit.utf8))
            _ = rename(full + ".saving", full)
        })
        let errors = await FaultInjection.$current.withValue(saving) { await store.dispatch(.toggleDone(path: path)) }.errors
        #expect(errors.map(\.kind) == [.changedOnDisk])
        #expect(try text(folder, path) == edit)
        #expect(store.state[path]?.title == "Buy oat milk")
    }

    @Test func aPrivateTodoStaysPrivateWhenTicked() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "todos/buy-milk.md"
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent(path).path)
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(await store.dispatch(.toggleDone(path: path)).succeeded)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func toggleDoneChangesOnlyThatLineOnDisk() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let path = "todos/buy-milk.md"
        let before = try text(folder, path)
        #expect(await store.dispatch(.toggleDone(path: path)).succeeded)
        let after = try text(folder, path)
        let changed = zip(before.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first.map { $0.1.hasPrefix("done: ") } == true)
        #expect(Todo(try Document(text: after)).done != Todo(try Document(text: before)).done)
    }

    @Test func aFileChangedOnDiskIsNotClobbered() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let path = "todos/buy-milk.md"
        let typed = "---\ntitle: Buy oat milk\ndone: false\n---\nTyped in vim meanwhile.\n"
        try typed.write(to: folder.appendingPathComponent(path), atomically: true, encoding: .utf8)
        let errors = await store.dispatch(.toggleDone(path: path)).errors
        #expect(errors.map(\.message) == ["the file changed on disk since Folio read it; Folio kept it as it is now and did not write"])
        #expect(try text(folder, path) == typed)
        #expect(store.state.records[path]?.title == "Buy oat milk")
        #expect(store.state.records[path]?.done == false)
    }

    @Test func addAndRemoveWriteAndDeleteFiles() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(await store.dispatch(.addTodo(Todo(title: "Water the basil", date: "2026-12-02", priority: 2))).succeeded)
        let written = try text(folder, "todos/water-the-basil.md")
        #expect(written == "---\ntitle: Water the basil\nkind: todo\ndate: 2026-12-02\ndone: false\npriority: 2\norder: 13\n---\n")
        #expect(await store.dispatch(.removeTodo(path: "todos/water-the-basil.md")).succeeded)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("todos/water-the-basil.md").path))
        // No temporary files are left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("todos").path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func observersSeeEachChangeSet() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        var iterator = store.changes().makeAsyncIterator()
        await store.dispatch(.toggleDone(path: "todos/buy-milk.md"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("todos/pay-rent.md"))
        await store.dispatch(.fileRemoved(path: "todos/pay-rent.md"))
        #expect(await iterator.next() == ChangeSet(updated: ["todos/buy-milk.md"], origin: .action, changedFields: ["todos/buy-milk.md": ["done"]]))
        #expect(await iterator.next() == ChangeSet(removed: ["todos/pay-rent.md"], origin: .disk))
    }

    @Test func manyTasksDispatchingAtOnceLoseNoUpdate() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        // Detached tasks on the cooperative pool, all adding a todo of the same title, with
        // outside changes arriving in between: every add must get its own file name and
        // order even though the dispatches reach the store in whatever order the pool runs them.
        let titles = (0..<100).map { _ in "Same task" }
        await withTaskGroup(of: Void.self) { group in
            for (i, title) in titles.enumerated() {
                group.addTask {
                    await Task.yield()
                    let errors = await store.dispatch(.addTodo(Todo(title: title, priority: i % 5))).errors
                    #expect(errors.isEmpty, "add \(i): \(errors)")
                    if i % 10 == 0 {
                        let bytes = Array("---\ntitle: Outside \(i)\n---\n".utf8)
                        #expect(FileManager.default.createFile(atPath: folder.path + "/todos/outside-\(i).md", contents: Data(bytes)))
                        _ = await store.dispatch(.fileChanged(path: "todos/outside-\(i).md", bytes: bytes))
                    }
                }
            }
        }
        let added = store.state.todos.filter { $0.title == "Same task" }
        #expect(added.count == 100)
        #expect(Set(added.map(\.path)).count == 100)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("todos").path)
        #expect(files.filter { $0.hasPrefix("same-task") }.count == 100)
        #expect(Set(added.map(\.priority)) == [0, 1, 2, 3, 4])
        #expect(Set(store.state.todos.compactMap(\.order)).count == store.state.todos.compactMap(\.order).count,
                "two todos were given the same order")
        for record in added {
            let text = try String(contentsOfFile: folder.path + "/" + record.path, encoding: .utf8)
            #expect(text.contains("title: Same task"), "\(record.path) holds \(text)")
        }
        store.state._checkInvariants()
    }

    @Test func settingsAreReadAndWrittenLosslessly() async throws {
        let folder = try fixturesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let settingsText = "# my settings\nsleepGoal: 8.0   # hours\nnotifications: true\ntheme: dark\n"
        try settingsText.write(to: folder.appendingPathComponent("folio.yaml"), atomically: true, encoding: .utf8)
        let store = try await Store.load(folder.path, removedFiles: nil)
        #expect(store.state.settings.sleepGoal == 8 && store.state.settings.notifications == true)
        var iterator = store.changes().makeAsyncIterator()
        var settings = store.state.settings
        settings.notifications = false
        #expect(await store.dispatch(.updateSettings(settings)).succeeded)
        #expect(try text(folder, "folio.yaml") == settingsText.replacingOccurrences(of: "notifications: true", with: "notifications: false"))
        #expect(await iterator.next()?.settingsChanged == true)
    }
}
