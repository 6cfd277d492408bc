@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// An editor's save landing in the window between the sync's check of a target and its
/// rename onto it (driven deterministically by a hook that saves right before the
/// rename): the save is never overwritten, the path is left for the next sync, and that
/// sync keeps both sides' work.
@Suite struct SyncRaceTests {
    static let soup = "---\ntitle: Soup\ntime: 15m\nservings: 4\n---\nHot.\n"

    /// Saves `text` at `path` as an editor does, the first time the sync is about to rename onto it.
    static func saving(_ text: String, at path: String) -> FaultInjection {
        RaceWindow.acting(at: .rename, on: path) { RaceWindow.save(text, at: path) }.hook
    }

    @Test func anEditSavedWhileTheOtherSidesEditIsCopiedOverItStays() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.soup, "soup.md", in: .a)
        _ = try replicas.sync()
        try replicas.write(Self.soup.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "soup.md", in: .a)
        let edit = Self.soup.replacingOccurrences(of: "servings: 4", with: "servings: 6")
        let report = try FaultInjection.$current.withValue(Self.saving(edit, at: replicas.path(.b, "soup.md"))) { try replicas.sync() }
        #expect(report.changedDuringSync == ["soup.md"])
        #expect(replicas.read("soup.md", in: .b) == edit)
        // The next sync merges both.
        _ = try replicas.sync()
        let both = Self.soup.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 4", with: "servings: 6")
        #expect(replicas.read("soup.md", in: .a) == both && replicas.read("soup.md", in: .b) == both)
    }

    @Test func aFileCreatedWhereTheOtherSidesRenameLandsStays() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.soup, "soup.md", in: .a)
        _ = try replicas.sync()
        try FileManager.default.moveItem(atPath: replicas.path(.a, "soup.md"), toPath: replicas.path(.a, "stew.md"))
        let created = "---\ntitle: Stew, by B\n---\n"
        _ = try FaultInjection.$current.withValue(Self.saving(created, at: replicas.path(.b, "stew.md"))) { try replicas.sync() }
        #expect(replicas.read("stew.md", in: .b) == created)
        // Nothing is lost: the next syncs keep both versions (one as a conflict copy).
        let next = try replicas.sync()
        let texts = Set(Replicas.files(under: replicas.b).values.map { String(decoding: $0, as: UTF8.self) })
        // (Merged as two new documents: B's title in the file, A's version in the copy.)
        #expect(texts.contains { $0.contains("title: Stew, by B") } && texts.contains { $0.contains("title: Soup") },
                "\(next) \(Replicas.files(under: replicas.root.path).keys.sorted())")
    }

    @Test func aFileCreatedWhereTheOtherSidesNewFileIsCopiedStays() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.soup, "soup.md", in: .a)
        _ = try replicas.sync()
        try replicas.write("---\ntitle: New, by A\n---\n", "new.md", in: .a)
        let created = "---\ntitle: New, by B\n---\n"
        let report = try FaultInjection.$current.withValue(Self.saving(created, at: replicas.path(.b, "new.md"))) { try replicas.sync() }
        #expect(report.changedDuringSync == ["new.md"])
        #expect(replicas.read("new.md", in: .b) == created)
        _ = try replicas.sync()
        let texts = Set(Replicas.files(under: replicas.b).values.map { String(decoding: $0, as: UTF8.self) })
        #expect(texts.contains(created) && texts.contains("---\ntitle: New, by A\n---\n"))
    }

    /// Saves `text` at `path` as an editor does, just after the sync's rename onto it and
    /// before the sync looks at the file again; `saved` tells whether it did.
    static func savingJustAfterTheRename(_ text: String, at path: String) -> (hook: FaultInjection, acted: @Sendable () -> Bool) {
        RaceWindow.acting(at: .stat, on: path, after: .rename) { RaceWindow.save(text, at: path) }
    }

    @Test func anEditSavedRightAfterTheSyncsRenameIsNotTakenForTheSyncsOwnWrite() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.soup, "soup.md", in: .a)
        _ = try replicas.sync()
        try replicas.write(Self.soup.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "soup.md", in: .a)
        let edit = Self.soup.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 4", with: "servings: 6")
        let (hook, saved) = Self.savingJustAfterTheRename(edit, at: replicas.path(.b, "soup.md"))
        _ = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(saved())
        // The next sync sees B's edit (it was not recorded as Folio's write) and carries it to A.
        _ = try replicas.sync()
        #expect(replicas.read("soup.md", in: .b) == edit && replicas.read("soup.md", in: .a) == edit)
    }

    /// As above, for a file the sync copies to where there was none.
    @Test func anEditSavedRightAfterTheSyncCreatesAFileIsNotTakenForTheSyncsOwnWrite() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.soup, "soup.md", in: .a)
        let edit = Self.soup.replacingOccurrences(of: "servings: 4", with: "servings: 6")
        let (hook, saved) = Self.savingJustAfterTheRename(edit, at: replicas.path(.b, "soup.md"))
        _ = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(saved())
        _ = try replicas.sync()
        #expect(replicas.read("soup.md", in: .b) == edit && replicas.read("soup.md", in: .a) == edit)
    }

    /// 0(e): a file renamed and edited on one side, edited on the other, is renamed by its
    /// id and then merged; when that merge gives up, what is recorded for the new name
    /// must not vouch for the edited file as the base, or the next sync copies over it.
    @Test func anEditFollowedByItsIDSurvivesAMergeThatGivesUp() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let merged = try replicas.renameAndEditOnTheLaptopWhileThePhoneEdits()
        // B's file is renamed (the first rename onto its new name); the merge's writes
        // there (the second) and onto A's file fail, so the merge gives up on both sides.
        final class Count: @unchecked Sendable {
            // Safe: a lock guards `renames`.
            let lock = NSLock()
            var renames = 0
        }
        let count = Count(), target = replicas.path(.b, "recipes/leek-soup.md"), inA = replicas.path(.a, "recipes/leek-soup.md")
        let hook = FaultInjection(failure: { operation, path in
            guard operation == .rename else { return nil }
            if path == inA { return EIO }
            guard path == target else { return nil }
            return count.lock.withLock {
                count.renames += 1
                return count.renames >= 2 ? EIO : nil
            }
        })
        let first = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(first.moved == ["recipes/soup.md → recipes/leek-soup.md"])
        #expect(count.lock.withLock { count.renames } >= 2, "the merge never tried to write B's file")
        #expect(replicas.read("recipes/leek-soup.md", in: .b)?.contains("servings: 4\n") == true)
        #expect(replicas.read("recipes/leek-soup.md", in: .a)?.contains("time: 20m\n") == true)
        #expect(replicas.read("recipes/leek-soup.md", in: .a) != merged)
        // The next sync merges B's edit rather than taking it for the base.
        _ = try replicas.sync()
        #expect(replicas.read("recipes/leek-soup.md", in: .a) == merged && replicas.read("recipes/leek-soup.md", in: .b) == merged)
    }

    /// `soup.md` and `keep.md` synced, then `soup.md` deleted on A: the next sync
    /// deletes B's (`keep.md` stays, so that B is not emptied).
    static func soupDeletedOnA() throws -> Replicas {
        let replicas = try Replicas()
        try replicas.write(Self.soup, "soup.md", in: .a)
        try replicas.write("---\ntitle: Keep\n---\n", "keep.md", in: .a)
        _ = try replicas.sync()
        try FileManager.default.removeItem(atPath: replicas.path(.a, "soup.md"))
        return replicas
    }

    @Test func anEditSavedWhileTheSyncMovesTheFileToTheTrashStays() throws {
        let replicas = try Self.soupDeletedOnA()
        defer { replicas.remove() }
        // B's editor saves the file just before the sync moves it into the trash.
        let target = replicas.path(.b, "soup.md"), edit = Self.soup.replacingOccurrences(of: "servings: 4", with: "servings: 6")
        let (hook, acted) = RaceWindow.acting(at: .rename, matching: { $0.contains("/trash/") && $0.hasSuffix("/B/soup.md") }) { RaceWindow.save(edit, at: target) }
        let report = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(acted() && report.changedDuringSync == ["soup.md"])
        #expect(replicas.read("soup.md", in: .b) == edit)
        // The edit wins over the deletion next time.
        _ = try replicas.sync()
        #expect(replicas.read("soup.md", in: .a) == edit)
    }
}
