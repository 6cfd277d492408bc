@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
import FolioTestSupport
@testable import FolioVersions
import Foundation
import Testing

/// Issue 36: a file the other side renamed is renamed here too, and a save lands on it
/// around that rename — an editor's save onto the new name, an append to the file, a
/// save onto the old name just before the rename. The stamp the sync records for the
/// new name must never vouch for content the file no longer holds: the next sync must
/// see the save and carry it across, never copy over it.
extension SyncRaceTests {
    static let stew = soup.replacingOccurrences(of: "time: 15m", with: "time: 25m")

    /// `soup.md` synced, then renamed to `stew.md` on A: the next sync renames B's.
    func renamedOnA() throws -> Replicas {
        let replicas = try Replicas()
        try replicas.write(Self.soup, "soup.md", in: .a)
        _ = try replicas.sync()
        try FileManager.default.moveItem(atPath: replicas.path(.a, "soup.md"), toPath: replicas.path(.a, "stew.md"))
        return replicas
    }

    /// Runs the sync that renames B's `soup.md` with `hook` in force, then checks that
    /// B's `stew.md` holds `expected` and that the syncs after carry it to A.
    func expectSaveCarriedAcross(_ replicas: Replicas, _ hook: FaultInjection, acted: () -> Bool, expected: String) throws {
        let racing = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(acted(), "the hook never ran: \(racing)")
        #expect(racing.moved == ["soup.md → stew.md"])
        #expect(replicas.read("stew.md", in: .b) == expected)
        // The next sync reads B's file (its stamp vouches for nothing) and copies the save to A.
        let next = try replicas.sync()
        #expect(next.copied == ["stew.md"], "\(next)")
        #expect(replicas.read("stew.md", in: .a) == expected && replicas.read("stew.md", in: .b) == expected)
        // And an edit on A after that merges with it, never replaces it.
        try replicas.write(expected.replacingOccurrences(of: "Hot.", with: "Very hot."), "stew.md", in: .a)
        _ = try replicas.sync()
        #expect(replicas.read("stew.md", in: .b) == expected.replacingOccurrences(of: "Hot.", with: "Very hot."))
    }

    @Test func aSaveOntoTheNewNameRightAfterTheSyncsRenameIsSeen() throws {
        let replicas = try renamedOnA()
        defer { replicas.remove() }
        let target = replicas.path(.b, "stew.md")
        let (hook, acted) = RaceWindow.acting(at: .stat, on: target, after: .rename) { RaceWindow.save(Self.stew, at: target) }
        try expectSaveCarriedAcross(replicas, hook, acted: acted, expected: Self.stew)
    }

    @Test func anAppendRightAfterTheSyncsRenameIsSeen() throws {
        let replicas = try renamedOnA()
        defer { replicas.remove() }
        let target = replicas.path(.b, "stew.md")
        let (hook, acted) = RaceWindow.acting(at: .stat, on: target, after: .rename) { RaceWindow.append("Served with bread.\n", to: target) }
        try expectSaveCarriedAcross(replicas, hook, acted: acted, expected: Self.soup + "Served with bread.\n")
    }

    @Test func aSaveOntoTheOldNameJustBeforeTheSyncsRenameIsSeen() throws {
        let replicas = try renamedOnA()
        defer { replicas.remove() }
        // The save lands after the sync's check of B's soup.md, just before its rename:
        // the rename moves the saved version to stew.md.
        let source = replicas.path(.b, "soup.md")
        let (hook, acted) = RaceWindow.acting(at: .rename, on: replicas.path(.b, "stew.md")) { RaceWindow.save(Self.stew, at: source) }
        try expectSaveCarriedAcross(replicas, hook, acted: acted, expected: Self.stew)
    }

    @Test func anAppendJustBeforeTheSyncsRenameIsSeen() throws {
        let replicas = try renamedOnA()
        defer { replicas.remove() }
        let source = replicas.path(.b, "soup.md")
        let (hook, acted) = RaceWindow.acting(at: .rename, on: replicas.path(.b, "stew.md")) { RaceWindow.append("Served with bread.\n", to: source) }
        try expectSaveCarriedAcross(replicas, hook, acted: acted, expected: Self.soup + "Served with bread.\n")
    }

    /// The same window in a rename followed by its front-matter id (renamed and edited
    /// on A): B's file is renamed, then A's edit is to be copied over it. An append to
    /// B's file right after the rename must stop that copy, and be merged next time.
    @Test func anAppendRightAfterARenameByIDIsMergedNotCopiedOver() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        let soup = "---\nid: 7f3a\ntitle: Soup\ntime: 15m\nservings: 2\n---\nHot.\n"
        try replicas.write(soup, "recipes/soup.md", in: .a)
        _ = try replicas.sync()
        try FileManager.default.removeItem(atPath: replicas.path(.a, "recipes/soup.md"))
        let edited = soup.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        try replicas.write(edited, "recipes/leek-soup.md", in: .a)
        let target = replicas.path(.b, "recipes/leek-soup.md")
        let (hook, acted) = RaceWindow.acting(at: .stat, on: target, after: .rename) { RaceWindow.append("Served with bread.\n", to: target) }
        let racing = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(acted())
        #expect(racing.moved == ["recipes/soup.md → recipes/leek-soup.md"])
        // A's edit was not copied over the appended file.
        #expect(replicas.read("recipes/leek-soup.md", in: .b) == soup + "Served with bread.\n")
        _ = try replicas.sync()
        let both = edited + "Served with bread.\n"
        #expect(replicas.read("recipes/leek-soup.md", in: .a) == both && replicas.read("recipes/leek-soup.md", in: .b) == both)
    }

    /// A sync run while a program on B has `path` open for appending (opened before the
    /// sync), which writes a line once the sync is done and then closes it.
    func syncWhileAWriterHasItOpen(_ replicas: Replicas, _ path: String) throws -> SyncReport {
        let writer = open(replicas.path(.b, path), O_WRONLY | O_APPEND)
        #expect(writer >= 0)
        defer { close(writer) }
        let report = try replicas.sync()
        _ = Array("Served with bread.\n".utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        return report
    }

    /// The other side's edit replaces B's file while a program on B still has it open
    /// for appending (it opened the file before the replacement): its line, written
    /// after, must land in B's file, not in the version the replacement set aside.
    @Test func aReplacementWaitsForAWriterThatHasTheFileOpen() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        try replicas.write(Self.soup, "soup.md", in: .a)
        _ = try replicas.sync()
        let edit = Self.soup.replacingOccurrences(of: "time: 15m", with: "time: 20m")
        try replicas.write(edit, "soup.md", in: .a)
        let racing = try syncWhileAWriterHasItOpen(replicas, "soup.md")
        #expect(racing.changedDuringSync == ["soup.md"], "\(racing)")
        #expect(replicas.read("soup.md", in: .b) == Self.soup + "Served with bread.\n")
        // Once the writer is done, both edits meet.
        _ = try replicas.sync()
        let both = edit + "Served with bread.\n"
        #expect(replicas.read("soup.md", in: .a) == both && replicas.read("soup.md", in: .b) == both)
    }

    /// A deletion from A reaches B while a program on B has the file open for writing:
    /// the file stays (a write is under way), and what is written reaches A.
    @Test func aDeletionWaitsForAWriterThatHasTheFileOpen() throws {
        let replicas = try Self.soupDeletedOnA()
        defer { replicas.remove() }
        let racing = try syncWhileAWriterHasItOpen(replicas, "soup.md")
        #expect(racing.changedDuringSync == ["soup.md"], "\(racing)")
        #expect(replicas.read("soup.md", in: .b) == Self.soup + "Served with bread.\n")
        // The edit wins over the deletion.
        _ = try replicas.sync()
        #expect(replicas.read("soup.md", in: .a) == Self.soup + "Served with bread.\n")
    }
}

extension SyncRaceTests {
    /// A deletion where the state folder is on another disk than the replica (a USB
    /// stick: the rename into the trash fails with EXDEV, injected here): the file is
    /// copied into the trash and then removed. A save landing after the copy must stay:
    /// it was removed by name, unguarded, before.
    @Test func aSaveLandingWhileADeletionCopiesAcrossDisksStays() throws {
        let replicas = try Self.soupDeletedOnA()
        defer { replicas.remove() }
        let source = replicas.path(.b, "soup.md"), edit = Self.soup.replacingOccurrences(of: "servings: 4", with: "servings: 6")
        let intoTheTrash = Counter(), saved = Counter()
        let hook = FaultInjection(
            failure: { operation, path in
                operation == .rename && path.contains("/trash/") && intoTheTrash.next() == 1 ? EXDEV : nil
            },
            beforeCall: { operation, path in
                // The step that removes the file: its unlink by name, or its move aside.
                guard (operation == .unlink && path == source) || (operation == .rename && path.contains("/.soup.md.folio-")), saved.next() == 1 else { return }
                RaceWindow.save(edit, at: source)
            })
        let racing = try FaultInjection.$current.withValue(hook) { try replicas.sync() }
        #expect(intoTheTrash.value >= 1 && saved.value >= 1)
        #expect(racing.changedDuringSync == ["soup.md"], "\(racing)")
        #expect(replicas.read("soup.md", in: .b) == edit)
        // The edit wins over the deletion.
        _ = try replicas.sync()
        #expect(replicas.read("soup.md", in: .a) == edit)
    }
}
