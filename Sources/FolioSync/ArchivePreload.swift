import Foundation
import FolioSystem
import FolioVersions

/// The archive, read on another thread from the moment a quick look finds a path that
/// differs: the sync that follows needs it, and reading 100,000 entries took as long as
/// a quarter of the look. A look that finds nothing changed never starts it, so a sync
/// with nothing to do reads no archive, as before.
///
/// `@unchecked Sendable` is safe: `started` is read and written only while `lock` is held;
/// `storage` is immutable and `Sendable` in all it holds (a path and an open folder).
final class ArchivePreload: @unchecked Sendable {
    /// An archive as read, and the stamps of its files then: it is the archive on disk
    /// while they are.
    struct Read: Sendable {
        var archive: SyncArchive
        var loaded: ArchiveStorage.Loaded
        var stamps: [FileStamp?]
    }

    private let storage: ArchiveStorage
    private let lock = NSLock()
    private var started: ConcurrentSlots<Read?>.Started?

    init(_ storage: ArchiveStorage) { self.storage = storage }

    /// Starts reading the archive, unless started already. From any thread.
    func start() {
        lock.withLock {
            guard started == nil else { return }
            started = ConcurrentSlots<Read?>.start(1) { [storage] _ in
                // Stamped before the read: a file changed during it then differs from its stamp.
                let stamps = storage.stamps()
                // One that cannot be read is read again by the sync, which reports why.
                guard let (archive, loaded) = try? storage.load() else { return nil }
                return Read(archive: archive, loaded: loaded, stamps: stamps)
            }
        }
    }

    /// The archive as read, once read; nil when it was never started or could not be read.
    func finish() -> Read? {
        lock.withLock { started }?.wait()[0]
    }
}
