import Foundation
import FolioStore
import FolioSystem
import FolioTestSupport
import Testing
@testable import FolioWatch

/// One file under two names (a hard link): a write through one name changes both, and
/// the store follows both, though inotify tells of the name written only.
@MainActor
@Suite struct HardLinkTests {
    /// A harness whose one file, `path` (titled "Before"), is also linked as `other`,
    /// once the store holds both names.
    func harness(_ path: String, linkedAs other: String) async throws -> WatchHarness {
        let harness = try await WatchHarness(files: [path: "---\ntitle: Before\n---\n"])
        do { try FileManager.default.linkItem(atPath: harness.root + "/" + path, toPath: harness.root + "/" + other) } catch {
            harness.finish()
            throw error
        }
        #expect(await harness.waitUntil { harness.store.state[other]?.title == "Before" })
        return harness
    }

    /// Writes `text` into the file at `path` in place (O_TRUNC, as vim with backupcopy=yes does).
    func writeInPlace(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func anEditThroughOneNameReachesTheOther() async throws {
        let harness = try await harness("notes/a.md", linkedAs: "notes/b.md")
        defer { harness.finish() }
        try writeInPlace("---\ntitle: After\n---\n", to: harness.root + "/notes/a.md")
        #expect(await harness.waitUntil { harness.store.state["notes/b.md"]?.title == "After" })
        #expect(harness.store.state["notes/a.md"]?.title == "After")
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// Written through one name and that name removed before the watcher reads it: no
    /// event names the other, yet it follows (the watcher knew the name was linked).
    @Test func aNameWrittenThroughThenRemovedLeavesTheOtherFollowed() async throws {
        let harness = try await harness("notes/a.md", linkedAs: "todos-b.md")
        defer { harness.finish() }
        await harness.watcher.settle()
        // Both steps land in one batch: the watcher sees a.md gone, nothing about b.
        try harness.watcher.withEventsQueued {
            try writeInPlace("---\ntitle: After\n---\n", to: harness.root + "/notes/a.md")
            try FileManager.default.removeItem(atPath: harness.root + "/notes/a.md")
        }
        #expect(await harness.waitUntil { harness.store.state["todos-b.md"]?.title == "After" })
        #expect(harness.store.state["notes/a.md"] == nil)
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// The same, when a folder of that name takes the removed name's place: the name is
    /// read as a folder, and still counts as gone.
    @Test func aNameWrittenThroughThenReplacedByAFolderLeavesTheOtherFollowed() async throws {
        let harness = try await harness("notes/a.md", linkedAs: "todos-b.md")
        defer { harness.finish() }
        await harness.watcher.settle()
        try harness.watcher.withEventsQueued {
            try writeInPlace("---\ntitle: After\n---\n", to: harness.root + "/notes/a.md")
            try FileManager.default.removeItem(atPath: harness.root + "/notes/a.md")
            try WatchHarness.write("---\ntitle: Inside\n---\n", to: harness.root + "/notes/a.md/inside.md")
        }
        #expect(await harness.waitUntil { harness.store.state["todos-b.md"]?.title == "After" })
        #expect(harness.store.state["notes/a.md/inside.md"]?.title == "Inside")
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// The same, when the name written through is then renamed: the file read at the
    /// new name has other names, so they are read too.
    @Test func aNameWrittenThroughThenRenamedLeavesTheOtherFollowed() async throws {
        let harness = try await harness("m33.md", linkedAs: "hard1.md")
        defer { harness.finish() }
        await harness.watcher.settle()
        try harness.watcher.withEventsQueued {
            let handle = try #require(FileHandle(forWritingAtPath: harness.root + "/hard1.md"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more\n".utf8))
            try handle.close()
            try FileManager.default.createDirectory(atPath: harness.root + "/notes/deep", withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: harness.root + "/hard1.md", toPath: harness.root + "/notes/deep/m22.md")
        }
        await harness.watcher.settle()
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// A link made, written through, then removed or replaced (another file renamed
    /// over it) before the watcher reads it: the watcher never learned the name was
    /// linked, yet the other name follows.
    @Test(arguments: [false, true])
    func aLinkMadeWrittenThroughAndGoneUnseenLeavesTheOtherFollowed(replaced: Bool) async throws {
        let harness = try await WatchHarness(files: ["a.md": "---\ntitle: Before\n---\n"])
        defer { harness.finish() }
        try harness.watcher.withEventsQueued {
            try FileManager.default.linkItem(atPath: harness.root + "/a.md", toPath: harness.root + "/b.md")
            try writeInPlace("---\ntitle: After\n---\n", to: harness.root + "/b.md")
            if replaced {
                try WatchHarness.write("---\ntitle: Other\n---\n", to: harness.root + "/c.md")
                #expect(rename(harness.root + "/c.md", harness.root + "/b.md") == 0)
            } else {
                try FileManager.default.removeItem(atPath: harness.root + "/b.md")
            }
        }
        await harness.watcher.settle()
        #expect(harness.store.state["a.md"]?.title == "After")
        #expect(harness.store.state["b.md"]?.title == (replaced ? "Other" : nil))
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }

    /// A linked name with a twin spelling (NFC beside NFD) is left out of the store, but
    /// a write through it still reaches the file's other name.
    @Test func aWriteThroughANameLeftOutAsATwinReachesTheOtherName() async throws {
        let harness = try await harness("a.md", linkedAs: "caf\u{E9}.md")
        defer { harness.finish() }
        try WatchHarness.write("twin\n", to: harness.root + "/cafe\u{301}.md")
        #expect(await harness.waitUntil { harness.store.state.records.isEmpty == false && harness.store.state.records.keys.allSatisfy { $0 == "a.md" } })
        await harness.watcher.settle()
        try writeInPlace("---\ntitle: After\n---\n", to: harness.root + "/caf\u{E9}.md")
        await harness.watcher.settle()
        #expect(harness.store.state["a.md"]?.title == "After")
        #expect(harness.storeFingerprints == (try harness.diskFingerprints()))
    }
}
