import Foundation
import Testing
@testable import FolioSystem
import FolioTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rooted layer: nothing below a root is ever reached through a link, whichever
/// way the path is resolved (the kernel's `openat2`, or the component walk), and a
/// folder swapped for a link between two steps makes the operation fail, never land
/// outside. A canary folder outside the root stands for everything else.
@Suite struct RootedPathTests {
    /// A root holding `sub/deeper/`, and beside it (outside the root) a canary folder
    /// with a secret at every name the tests use.
    struct Place {
        let top: String
        var root: String { top + "/root" }
        var canary: String { top + "/canary" }

        init() throws {
            top = FileManager.default.temporaryDirectory.appendingPathComponent("folio-rooted-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: canary + "/deeper", withIntermediateDirectories: true)
            for name in ["soup.md", "deeper/soup.md"] { try Data("secret\n".utf8).write(to: URL(fileURLWithPath: canary + "/" + name)) }
            try Data("real\n".utf8).write(to: URL(fileURLWithPath: root + "/sub/deeper/soup.md"))
        }

        func remove() { try? FileManager.default.removeItem(atPath: top) }

        /// Every file under the canary and its bytes: what a test checks is unchanged.
        func canaryFiles() -> [String: Data] {
            var files: [String: Data] = [:]
            let walker = FileManager.default.enumerator(atPath: canary)
            while let relative = walker?.nextObject() as? String {
                if let data = FileManager.default.contents(atPath: canary + "/" + relative) { files[relative] = data }
            }
            return files
        }

        /// Puts a link to the canary where `sub` was (the real folder kept aside), as an
        /// attacker's one rename would.
        func swapSubForLink() {
            _ = rename(root + "/sub", root + "/sub.real")
            _ = symlink(canary, root + "/sub")
        }
    }

    static let modes: [Bool] = [false, true]

    @Test(arguments: modes) func aLinkInPlaceOfAFolderIsNeverFollowed(walking: Bool) throws {
        let place = try Place()
        defer { place.remove() }
        place.swapSubForLink()
        let before = place.canaryFiles()
        let folder = try RootedFolder(place.root)
        FaultInjection.$current.withValue(FaultInjection(walksComponents: walking)) {
            #expect(throws: SystemError.self) { try FileReading.contents(of: folder["sub/deeper/soup.md"]) }
            #expect(throws: SystemError.self) { try AtomicFile.write(Array("mine\n".utf8), to: folder["sub/new.md"]) }
            #expect(throws: SystemError.self) { try folder["sub/deeper/soup.md"].unlink() }
            #expect(throws: SystemError.self) { try folder["sub/deeper"].makeDirectories() }
            #expect(throws: SystemError.self) { try folder["sub"].entries() }
            #expect(throws: SystemError.self) { try DirectoryWalk.files(under: folder["sub"], descend: { _ in true }, include: { _ in true }) }
            // A rename out of or into the linked folder is refused too.
            #expect(throws: SystemError.self) { try folder["sub/soup.md"].rename(to: folder["taken.md"]) }
        }
        #expect(place.canaryFiles() == before)
        #expect(!FileManager.default.fileExists(atPath: place.root + "/taken.md"))
    }

    /// The race driven step by step: the folder is swapped for a link just before the
    /// path's folders are opened (with the walk, between the root's component and the next).
    @Test(arguments: modes) func aFolderSwappedForALinkMidResolutionFailsTheWrite(walking: Bool) throws {
        let place = try Place()
        defer { place.remove() }
        let before = place.canaryFiles()
        let folder = try RootedFolder(place.root)
        let swapped = Once()
        let trigger = walking ? place.root + "/sub" : place.root + "/sub/deeper"
        let plan = FaultInjection(beforeCall: { operation, path in
            guard operation == .openDirectory, path == trigger else { return }
            swapped.run { place.swapSubForLink() }
        }, walksComponents: walking)
        let error = #expect(throws: SystemError.self) {
            try FaultInjection.$current.withValue(plan) {
                try AtomicFile.write(Array("mine\n".utf8), to: folder["sub/deeper/soup.md"])
            }
        }
        #expect(swapped.done)
        #expect(error?.code == Syscall.symbolicLinkInTheWay || error?.code == Syscall.notADirectory)
        #expect(error?.description.contains("symbolic link") == true || error?.code == Syscall.notADirectory)
        #expect(place.canaryFiles() == before)
        // The real folder, set aside, still holds its own file unchanged.
        #expect(FileManager.default.contents(atPath: place.root + "/sub.real/deeper/soup.md") == Data("real\n".utf8))
    }

    /// Swapped after the folder holding the file was opened: the write lands in that very
    /// folder (now renamed aside, still below the root), never in the link's target.
    @Test func aSwapAfterTheFolderIsOpenLandsInThePinnedFolder() throws {
        let place = try Place()
        defer { place.remove() }
        let before = place.canaryFiles()
        let folder = try RootedFolder(place.root)
        let swapped = Once()
        let plan = FaultInjection(beforeCall: { operation, path in
            guard operation == .open, path.hasSuffix(".tmp") else { return }
            swapped.run { place.swapSubForLink() }
        })
        // The rename after it resolves the folder again, finds the link, and fails.
        #expect(throws: SystemError.self) {
            try FaultInjection.$current.withValue(plan) { try AtomicFile.write(Array("mine\n".utf8), to: folder["sub/deeper/soup.md"]) }
        }
        #expect(place.canaryFiles() == before)
    }

    @Test func aFIFOIsRefusedAtOnceNeverWaitedOn() throws {
        let place = try Place()
        defer { place.remove() }
        #expect(mkfifo(place.root + "/folio.yaml", 0o644) == 0)
        let folder = try RootedFolder(place.root)
        let error = #expect(throws: SystemError.self) { try AtomicFile.contentsIfPresent(folder["folio.yaml"]) }
        #expect(error?.code == Syscall.notRegularFile)
        #expect(error?.description == "\(place.root)/folio.yaml: error: cannot open: not a regular file (Folio reads only regular files, never a FIFO, device or socket)")
    }

    @Test func aLinkInPlaceOfAFileIsNotReadAndItsTargetNotWritten() throws {
        let place = try Place()
        defer { place.remove() }
        _ = symlink(place.canary + "/soup.md", place.root + "/soup.md")
        let folder = try RootedFolder(place.root)
        let error = #expect(throws: SystemError.self) { try FileReading.contents(of: folder["soup.md"]) }
        #expect(error?.code == Syscall.symbolicLinkInTheWay)
        // A replacement renames over the link itself: the link goes, its target stays.
        try AtomicFile.write(Array("mine\n".utf8), to: folder["soup.md"])
        #expect(FileManager.default.contents(atPath: place.canary + "/soup.md") == Data("secret\n".utf8))
        #expect(try FileReading.contents(of: folder["soup.md"]) == Array("mine\n".utf8))
    }

    @Test func namesThatCouldLeadOutsideAreRefused() throws {
        let place = try Place()
        defer { place.remove() }
        let folder = try RootedFolder(place.root)
        for bad in ["../canary/soup.md", "sub/../../canary/soup.md", "/etc/passwd", "sub//soup.md", "./soup.md", "sub/"] {
            let error = #expect(throws: SystemError.self, "\(bad)") { try FileReading.contents(of: folder[bad]) }
            #expect(error?.code == Syscall.leadsOutside, "\(bad)")
        }
    }

    @Test func theRootItselfMayBeALinkAndIsPinned() throws {
        let place = try Place()
        defer { place.remove() }
        _ = symlink(place.root, place.top + "/alias")
        let folder = try RootedFolder(place.top + "/alias")
        // The link is repointed at the canary: the pinned folder is still the root.
        _ = unlink(place.top + "/alias")
        _ = symlink(place.canary, place.top + "/alias")
        #expect(try FileReading.contents(of: folder["sub/deeper/soup.md"]) == Array("real\n".utf8))
    }

    @Test func theKernelPathIsTakenWhereItExists() {
        #if os(Linux)
        // Linux 5.6 and later: the kernel resolves below the root itself.
        #expect(Syscall.kernelResolvesBeneath)
        #expect(Syscall.resolutionInUse == "openat2")
        #endif
        FaultInjection.$current.withValue(FaultInjection(walksComponents: true)) {
            #expect(Syscall.resolutionInUse == "component walk")
        }
    }
}

/// Runs an action once, from whichever thread asks first.
final class Once: @unchecked Sendable {
    // Safe: `ran` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var ran = false

    func run(_ action: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if !ran { action() }
        ran = true
    }

    var done: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ran
    }
}
