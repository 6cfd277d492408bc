import Foundation
import Testing
@testable import FolioSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state folder's lock, released at once when its holder lets go — even while a
/// copy of its descriptor lives on, as it does in a program another thread is starting
/// (between its fork and its exec).
@Suite struct StateLockTests {
    @Test func aLockLetGoIsFreeThoughACopyOfItsDescriptorLivesOn() throws {
        #if os(Linux)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("folio-lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        var lock: StateLock? = try StateLock.acquire(state, wait: .zero)
        #expect(lock != nil)
        // The copy a child process holds until it execs: a dup of the lock's descriptor.
        let lockFile = URL(fileURLWithPath: state + "/lock").resolvingSymlinksInPath().path
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init)
        let held = try #require(descriptors.first { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == lockFile })
        let copy = dup(held)
        try #require(copy >= 0)
        defer { close(copy) }
        // Held: another holder is refused.
        #expect(throws: StateLock.Failure.self) { try StateLock.acquire(state + "/", wait: .zero) }
        lock = nil
        // Let go: free at once, the copy notwithstanding.
        #expect(throws: Never.self) { _ = try StateLock.acquire(state, wait: .zero) }
        #endif
    }
}
