#if canImport(Glibc)
import Foundation
import Testing
@testable import FolioShared
@testable import FolioSync
import FolioSystem
import FolioTestSupport

/// A folder of a replica or shared folder swapped for a link to a folder outside at each
/// system call of a sync and of a fold in turn (and back a few calls later), with the
/// component walk and with `openat2` alternately: inotify on the outside folder sees no
/// open and no read, and its secret reaches nothing Folio writes. The deterministic form
/// of Tests/Hostile/swaploop.py, which found one sync in fifty reading outside.
@Suite struct LinkSwapTests {
    /// A shared folder's options in `place`: its own state, no quiet period.
    static func foldOptions(_ place: String) -> FoldOptions {
        var options = FoldOptions()
        options.stateDirectory = place + "/state"
        options.quietPeriod = .zero
        return options
    }

    static func soup(_ serves: Int, _ time: String) -> String { "---\ntitle: Soup\nserves: \(serves)\ntime: \(time)\n---\nStir.\n" }

    @Test func aSyncNeverOpensAFolderSwappedInFromOutside() throws {
        let result = try FolderSwap.atEachCall("sync", prepare: { place in
            let (a, b, state) = (place + "/A", place + "/B", place + "/state")
            for index in 0..<3 { try FixtureFile.write("---\ntitle: n\(index)\n---\n", to: a + "/sub/n\(index).md") }
            try FixtureFile.write(Self.soup(2, "10m"), to: a + "/sub/soup.md")
            try FixtureFile.write("---\ntitle: d0\n---\n", to: a + "/sub/deeper/d0.md")
            try FileManager.default.createDirectory(atPath: b, withIntermediateDirectories: true)
            var options = SyncOptions()
            options.stateDirectory = state
            _ = try SyncEngine(a, b, options: options).run()
            // Then edits on both sides: a merge, an add, a delete, a new folder.
            try FixtureFile.write(Self.soup(4, "10m"), to: a + "/sub/soup.md")
            try FixtureFile.write(Self.soup(2, "20m"), to: b + "/sub/soup.md")
            try FixtureFile.write("---\ntitle: n9\n---\n", to: a + "/sub/n9.md")
            try FileManager.default.removeItem(atPath: b + "/sub/n1.md")
            try FixtureFile.write("---\ntitle: d1\n---\n", to: b + "/sub/deeper/d1.md")
            return (b + "/sub", b + "/link")
        }, run: { place in
            var options = SyncOptions()
            options.stateDirectory = place + "/state"
            _ = try? SyncEngine(place + "/A", place + "/B", options: options).run()
            return []
        })
        print("LinkSwapTests: sync: \(result.runs) runs, \(result.calls) calls a run, \(result.swaps) swaps, \(result.opens.count) opens outside")
        #expect(result.swaps >= FolderSwap.swapsWanted)
        #expect(result.opens == [])
    }

    @Test func aFoldNeverOpensAFolderSwappedInFromOutside() throws {
        let copy = "sub/soup.sync-conflict-20261201-120000-ABCDEFG.md"
        let result = try FolderSwap.atEachCall("fold", prepare: { place in
            let folder = place + "/shared"
            try FixtureFile.write(Self.soup(2, "10m"), to: folder + "/sub/soup.md")
            try FixtureFile.write("---\ntitle: d0\n---\n", to: folder + "/sub/deeper/d0.md")
            _ = try SharedFolder(folder, options: Self.foldOptions(place)).record()
            // This device's edit, and Syncthing's copy of the other device's.
            try FixtureFile.write(Self.soup(4, "10m"), to: folder + "/sub/soup.md")
            try FixtureFile.write(Self.soup(2, "20m"), to: folder + "/" + copy)
            return (folder + "/sub", folder + "/link")
        }, run: { place in
            guard let shared = try? SharedFolder(place + "/shared", options: Self.foldOptions(place)) else { return [] }
            _ = try? shared.record()
            _ = shared.fold()
            return []
        })
        print("LinkSwapTests: fold: \(result.runs) runs, \(result.calls) calls a run, \(result.swaps) swaps, \(result.opens.count) opens outside")
        #expect(result.swaps >= FolderSwap.swapsWanted)
        #expect(result.opens == [])
    }

    /// In a git work tree, recording a change asks git whether HEAD holds it (a checkout's
    /// doing): git is given the bytes' name in HEAD, never the file's path to read — it
    /// would follow the link that replaced the folder.
    @Test func recordingInAGitWorkTreeNeverHasGitReadThroughTheLink() throws {
        guard let git = ExternalTool.find(["git"], install: "apt-get install git") else { return }
        let result = try FolderSwap.atEachCall("record in git", prepare: { place in
            let folder = place + "/shared"
            try FixtureFile.write(Self.soup(2, "10m"), to: folder + "/sub/soup.md")
            for arguments in [["init", "-q"], ["add", "."], ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "soup"]] {
                try ExternalTool.run(git, arguments, in: folder)
            }
            _ = try SharedFolder(folder, options: Self.foldOptions(place)).record()
            try FixtureFile.write(Self.soup(4, "10m"), to: folder + "/sub/soup.md")
            return (folder + "/sub", folder + "/link")
        }, run: { place in
            _ = try? SharedFolder(place + "/shared", options: Self.foldOptions(place)).record()
            return []
        })
        print("LinkSwapTests: record in git: \(result.runs) runs, \(result.calls) calls a run, \(result.swaps) swaps, \(result.opens.count) opens outside")
        #expect(result.opens == [])
    }
}
#endif
