import Foundation
import Testing
@testable import FolioSystem

/// Folders opened once for a run of files: a pinned path names the same file as the
/// path it came from, a folder is opened once per run in it, a link in the way is
/// refused as every rooted path refuses it, and a new file's commit never replaces.
@Suite struct FolderPinsTests {
    /// The rooted layer's place: `root/sub/deeper/soup.md` ("real"), a canary outside.
    typealias Place = RootedPathTests.Place

    @Test func aPinnedPathNamesTheSameFileAndItsFolderIsOpenedOncePerRun() throws {
        let place = try Place()
        defer { place.remove() }
        let root = try RootedFolder(place.root)
        var pins = FolderPins()
        let first = try pins.pinned(root["sub/deeper/soup.md"])
        let second = try pins.pinned(root["sub/deeper/b.md"])
        #expect(first.folder === second.folder)
        #expect(first.folder !== root)
        #expect(first.path == place.root + "/sub/deeper/soup.md")
        #expect(try FileReading.contents(of: first) == Array("real\n".utf8))
        #expect(try FileStamp.of(first) == FileStamp.of(root["sub/deeper/soup.md"]))
        // A name right below the root needs no folder of its own.
        let top = try pins.pinned(root["top.md"])
        #expect(top.folder === root && top.relative == "top.md")
        // Another folder of the same root takes the place of the one kept.
        let other = try pins.pinned(root["sub/c.md"])
        #expect(other.folder !== first.folder)
        #expect(try pins.pinned(root["sub/deeper/soup.md"]).folder !== first.folder)
    }

    @Test func aFolderThatIsALinkIsRefusedAndNothingOutsideIsReached() throws {
        let place = try Place()
        defer { place.remove() }
        let before = place.canaryFiles()
        place.swapSubForLink()
        let root = try RootedFolder(place.root)
        var pins = FolderPins()
        #expect(throws: SystemError.self) { try pins.pinned(root["sub/deeper/soup.md"]) }
        #expect(throws: SystemError.self) { try pins.pinned(root["sub/soup.md"]) }
        #expect(place.canaryFiles() == before)
    }

    @Test func aNewFilesCommitLeavesAFileThatAppearedMeanwhileAndRemovesItsTemporary() throws {
        let place = try Place()
        defer { place.remove() }
        let root = try RootedFolder(place.root)
        var pins = FolderPins()
        let target = try pins.pinned(root["sub/deeper/soup.md"])
        let temporary = try AtomicFile.prepare(Array("would replace\n".utf8), beside: target, mode: nil)
        #expect(try AtomicFile.commitNew(temporary, to: target) == false)
        #expect(FileManager.default.contents(atPath: place.root + "/sub/deeper/soup.md") == Data("real\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.root + "/sub/deeper") == ["soup.md"])
        let fresh = try pins.pinned(root["sub/deeper/new.md"])
        let written = try AtomicFile.prepare(Array("new\n".utf8), beside: fresh, mode: nil)
        #expect(try AtomicFile.commitNew(written, to: fresh))
        #expect(FileManager.default.contents(atPath: place.root + "/sub/deeper/new.md") == Data("new\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.root + "/sub/deeper").sorted() == ["new.md", "soup.md"])
    }
}
