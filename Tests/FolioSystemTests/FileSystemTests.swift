import Foundation
import Testing
@testable import FolioSystem
import FolioTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading files and walking folders, including the error paths, driven by fault injection.
@Suite struct FileSystemTests {
    func temporaryFolder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-system-\(UUID().uuidString)")
        try Fixtures.write(files, into: root)
        return root
    }

    @Test func readsWholeFilesOfAnySize() throws {
        let big = String(repeating: "0123456789", count: 100_000)
        let root = try temporaryFolder(["empty.md": "", "big.md": big])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try FileReading.contents(of: root.appendingPathComponent("empty.md").path) == [])
        #expect(try FileReading.contents(of: root.appendingPathComponent("big.md").path) == Array(big.utf8))
    }

    /// `log.md` holding "start\n" in a new folder, and a plan that appends 20,000 bytes
    /// to it just before the first read call: the file is then longer than it was measured.
    func logThatGrowsOnItsFirstRead() throws -> (root: URL, path: String, plan: FaultInjection) {
        let root = try temporaryFolder(["log.md": "start\n"])
        let path = root.appendingPathComponent("log.md").path
        let grown = LockedFlag()
        let plan = FaultInjection { operation, _ in
            if operation == .read && grown.setOnce() {
                let handle = FileHandle(forWritingAtPath: path)!
                handle.seekToEndOfFile()
                handle.write(Data(String(repeating: "more\n", count: 4_000).utf8))
                handle.closeFile()
            }
            return nil
        }
        return (root, path, plan)
    }

    @Test func aFileThatGrowsWhileItIsReadIsReadToItsEnd() throws {
        let (root, path, plan) = try logThatGrowsOnItsFirstRead()
        defer { try? FileManager.default.removeItem(at: root) }
        let bytes = try FaultInjection.$current.withValue(plan) { try FileReading.contents(of: path) }
        #expect(bytes == Array(("start\n" + String(repeating: "more\n", count: 4_000)).utf8))
    }

    @Test func aFileReadWithItsStampThatGrowsMeanwhileIsReadToItsEndAndStampedAtThatEnd() throws {
        let (root, path, plan) = try logThatGrowsOnItsFirstRead()
        defer { try? FileManager.default.removeItem(at: root) }
        // The first read stops at the 6 bytes measured; only the look after it shows that there is more.
        let (bytes, stamp) = try FaultInjection.$current.withValue(plan) { try FileReading.contentsAndStamp(of: RootedPath.absolute(path)) }
        #expect(bytes == Array(("start\n" + String(repeating: "more\n", count: 4_000)).utf8))
        #expect(stamp == (try FileStamp.of(path)))
    }

    @Test func aFileReadWithItsStampTakesOneReadCallUnlessItIsEmpty() throws {
        let root = try temporaryFolder(["a.md": String(repeating: "x", count: 70_000), "empty.md": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, size, calls) in [("a.md", 70_000, 1), ("empty.md", 0, 1)] {
            let reads = Counter()
            let plan = FaultInjection { operation, _ in
                if operation == .read { _ = reads.next() }
                return nil
            }
            let path = root.appendingPathComponent(name).path
            let (bytes, stamp) = try FaultInjection.$current.withValue(plan) { try FileReading.contentsAndStamp(of: RootedPath.absolute(path)) }
            #expect(bytes.count == size && stamp.size == Int64(size))
            // The size looked at after the read says it is all there: no read to find the end
            // (an empty file is read once, to its end: a made-up file may be sized 0).
            #expect(reads.value == calls, "\(name)")
        }
    }

    @Test func aFailedReadIsATypedErrorNamingTheFile() throws {
        let root = try temporaryFolder(["a.md": "text"])
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("a.md").path
        let faults = FaultInjection { operation, _ in operation == .read ? EIO : nil }
        #expect {
            try FaultInjection.$current.withValue(faults) { _ = try FileReading.contents(of: path) }
        } throws: { error in
            (error as? SystemError)?.description == "\(path): error: cannot read: \(String(cString: strerror(EIO)))"
        }
    }

    @Test func interruptedCallsAreRetriedNotReported() throws {
        let root = try temporaryFolder(["a.md": "text"])
        defer { try? FileManager.default.removeItem(at: root) }
        let interruptions = Countdown(3)
        let faults = FaultInjection { operation, _ in
            operation == .read && interruptions.next() ? EINTR : nil
        }
        let bytes = try FaultInjection.$current.withValue(faults) {
            try FileReading.contents(of: root.appendingPathComponent("a.md").path)
        }
        #expect(bytes == Array("text".utf8))
        #expect(interruptions.remaining == 0)
    }

    @Test func walkListsRegularFilesSkipsWhatItIsToldAndNeverFollowsLinks() throws {
        let root = try temporaryFolder([
            "a.md": "", "sub/b.md": "", "sub/deeper/c.md": "", ".git/d.md": "", "e.txt": "",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link.md").path, withDestinationPath: "a.md")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: ".")
        let walk = try DirectoryWalk.files(under: root.path, descend: { $0 != ".git" }, include: { $0.hasSuffix(".md") })
        #expect(walk.paths == ["a.md", "sub/b.md", "sub/deeper/c.md"])
        #expect(walk.problems.isEmpty)
    }

    @Test func anUnreadableFolderIsReportedAndTheRestStillListed() throws {
        let root = try temporaryFolder(["a.md": "", "locked/b.md": "", "open/c.md": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        let faults = FaultInjection { operation, path in
            operation == .openDirectory && path.hasSuffix("/locked") ? EACCES : nil
        }
        let walk = try FaultInjection.$current.withValue(faults) {
            try DirectoryWalk.files(under: root.path, descend: { _ in true }, include: { _ in true })
        }
        #expect(walk.paths == ["a.md", "open/c.md"])
        #expect(walk.problems.map(\.code) == [EACCES])
        #expect(walk.problems.first?.description.hasSuffix("/locked: error: cannot open directory: \(String(cString: strerror(EACCES)))") == true)
    }

    @Test func aMissingRootIsAnErrorNotAnEmptyFolder() {
        #expect(throws: SystemError.self) {
            _ = try DirectoryWalk.files(under: "/nonexistent/folio", descend: { _ in true }, include: { _ in true })
        }
    }
}

/// Says yes a given number of times, from any thread.
///
/// `@unchecked Sendable` is safe: `count` is only read and written while `lock` is held.
final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int

    init(_ count: Int) { self.count = count }

    func next() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard count > 0 else { return false }
        count -= 1
        return true
    }

    var remaining: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A flag set once, from any thread.
final class LockedFlag: @unchecked Sendable {
    // @unchecked Sendable is safe: `set` is only touched while holding `lock`.
    private let lock = NSLock()
    private var set = false

    /// True the first time only.
    func setOnce() -> Bool { lock.withLock { defer { set = true }; return !set } }
}
