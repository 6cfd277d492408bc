@testable import FolioSystem
@testable import FolioVersions
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pack of versions' contents when the disk refuses: nothing compacted away, a
/// failure inside a load thrown by the next flush. Faults are injected, as the tests run
/// as root and permissions deny nothing.
@Suite struct BaseStoreTests {
    /// A fresh state folder, removed by the caller.
    func stateFolder() throws -> (RootedFolder, remove: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bases-\(UUID().uuidString)")
        return (try RootedFolder.creating(root.appendingPathComponent("state").path, mode: 0o700), { try? FileManager.default.removeItem(at: root) })
    }

    /// Compaction of the merge bases with an index it cannot read stops, rather than
    /// write a generation holding none of them.
    @Test func basesAreNotCompactedAwayWhenTheIndexCannotBeRead() throws {
        let (state, remove) = try stateFolder()
        defer { remove() }
        let kept = Array("base\n".utf8), hash = SHA256.hash(kept)
        let bases = BaseStore(state: state, known: [])
        try bases.store(kept, hash: hash)
        try bases.flush()
        let failing = FaultInjection(failure: { operation, path in operation == .read && path.hasSuffix("state/bases.index") ? EIO : nil })
        FaultInjection.$current.withValue(failing) {
            #expect(throws: SystemError.self) { try BaseStore(state: state, known: []).compact(keeping: [hash]) }
        }
        #expect(BaseStore(state: state, known: []).load(hash) == kept)
    }

    /// Versions located in the index without its whole table load as they do with it,
    /// in compressed blocks and stored alone; one not located is still found; an index
    /// that cannot be read at the locating locates nothing and loses nothing.
    @Test func locatedVersionsLoadAsTheWholeTableLoadsThem() throws {
        let (state, remove) = try stateFolder()
        defer { remove() }
        let bases = BaseStore(state: state, known: [])
        // Many alike (compressed together into blocks) and one large one, stored as it is.
        var versions = (0..<400).map { Array("---\ntitle: Soup \($0)\n---\nStir \($0) times.\n".utf8) }
        versions.append((0..<(BaseStore.blockSize + 10)).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })
        for version in versions { try bases.store(version, hash: SHA256.hash(version)) }
        try bases.flush()
        let picked = [3, 150, 399, 400].map { versions[$0] }
        let fresh = BaseStore(state: state, known: [])
        fresh.locate(Set(picked.map(SHA256.hash)))
        for version in picked + [versions[7], versions[250]] { #expect(fresh.load(SHA256.hash(version)) == version) }
        #expect(fresh.load(SHA256.hash(Array("never stored\n".utf8))) == nil)
        let failing = FaultInjection(failure: { operation, path in operation == .read && path.hasSuffix("state/bases.index") ? EIO : nil })
        let unread = BaseStore(state: state, known: [])
        FaultInjection.$current.withValue(failing) { unread.locate([SHA256.hash(versions[3])]) }
        #expect(unread.load(SHA256.hash(versions[3])) == versions[3])
    }

    /// A flush of the bases that fails inside a load (which cannot throw) is thrown by
    /// the next flush, for the sync's record of its state to report.
    @Test func aFlushThatFailsInsideALoadIsThrownByTheNextFlush() throws {
        let (state, remove) = try stateFolder()
        defer { remove() }
        let bases = BaseStore(state: state, known: [])
        let bytes = Array("base\n".utf8)
        try bases.store(bytes, hash: SHA256.hash(bytes))
        let failing = FaultInjection(failure: { operation, path in operation == .open && path.hasSuffix(".pack") ? ENOSPC : nil })
        #expect(FaultInjection.$current.withValue(failing) { bases.load(SHA256.hash(bytes)) } == nil)
        #expect(throws: SystemError.self) { try bases.flush() }
        #expect(throws: Never.self) { try bases.flush() }
    }
}
