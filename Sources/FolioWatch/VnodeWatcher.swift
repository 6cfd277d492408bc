#if canImport(Darwin)
import Dispatch
import FolioSystem

/// The watcher for Apple platforms without FSEvents (iOS, iPadOS, visionOS; FSEvents is
/// macOS's): a vnode dispatch source on every folder under the root. A folder's source
/// fires when an entry in it is added, removed or renamed — how editors, the Files app
/// and sync tools save — and the folder is then read again (a ``WatchHint/changed(_:)``
/// hint); folders that appear are watched at once. A write into an existing file in
/// place changes no folder, so it is caught by the periodic rescan (or use polling).
/// A folder that cannot be opened is reported and read again at each rescan.
/// (This file is compiled only on Apple platforms.)
///
/// `@unchecked Sendable` is safe: `sources` and `stopped` are read and written only on
/// `queue` (``start()``, ``stop()`` and ``drain()`` enter it with `queue.sync`; the
/// sources' handlers run on it).
package final class VnodeWatcher: DirectoryWatcher, @unchecked Sendable {
    private let root: String
    private let handler: @Sendable ([WatchHint]) -> Void
    private let queue = DispatchQueue(label: "folio.watch.vnode")
    /// The source of each watched folder, by its path relative to the root, and the
    /// folder's inode (to tell, when it fires, whether the folder is still there).
    private var sources: [String: (source: any DispatchSourceFileSystemObject, inode: UInt64)] = [:]
    private var stopped = false

    /// At most this many folders are watched (each holds a descriptor, and Darwin's
    /// default limit is 256 per process); the rest are read again at each rescan.
    static let mostSources = 128

    package init(root: String, handler: @escaping @Sendable ([WatchHint]) -> Void) {
        self.root = root
        self.handler = handler
    }

    deinit {
        // The handlers hold the watcher weakly: nothing else can reach `sources` now.
        for watched in sources.values { watched.source.cancel() }
    }

    package func start() throws(SystemError) {
        let stamp = try FileStamp.of(RootedFolder(root).root)
        guard stamp.isDirectory else { throw SystemError(operation: .openDirectory, path: root, code: Syscall.notADirectory) }
        queue.sync { watchFolders(under: "") }
    }

    package func stop() {
        queue.sync {
            stopped = true
            for watched in sources.values { watched.source.cancel() }
            sources = [:]
        }
    }

    /// The sources' events are delivered on `queue` in order: once it has run what it
    /// holds, every event for a change made before this call has been handed on.
    package func drain() {
        queue.sync {}
    }

    /// Watches `start` and every folder under it not watched yet. Runs on `queue`.
    private func watchFolders(under start: String) {
        var unwatchable: [WatchHint] = []
        for folder in folders(under: start, in: root) where sources[folder] == nil && !stopped {
            guard sources.count < Self.mostSources else {
                unwatchable.append(.warning("more than \(Self.mostSources) folders under \(root): those past it are read again at each rescan (or use polling)"))
                break
            }
            let full = joined(root, folder)
            let fd: Int32, stamp: FileStamp
            do {
                let rooted = try RootedFolder(root)[folder]
                stamp = try FileStamp.of(rooted)
                fd = try Syscall.openForEvents(rooted)
            } catch {
                unwatchable.append(.warning("cannot watch \(full) (\(error.reason)); it is read again at each rescan"))
                continue
            }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: fd, eventMask: [.write, .delete, .rename, .link, .revoke], queue: queue)
            source.setEventHandler { [weak self] in self?.changed(folder) }
            source.setCancelHandler { Syscall.close(fd) }
            sources[folder] = (source, stamp.inode)
            source.resume()
        }
        if !unwatchable.isEmpty { handler(unwatchable) }
    }

    /// An event on `folder`'s source. Runs on `queue`.
    private func changed(_ folder: String) {
        guard !stopped, let watched = sources[folder] else { return }
        // A folder that cannot be looked at is taken as gone or moved: its parent's source watches it again, the safe way.
        if (try? FileStamp.of(RootedFolder(root)[folder]))?.inode != watched.inode {
            // The folder itself went away or moved: what was under it is no longer watched
            // here; its parent's source reports the move, and watches it where it landed.
            for (path, other) in sources where RelativePath.isAt(path, orBelow: folder) {
                other.source.cancel()
                sources[path] = nil
            }
            handler([folder.isEmpty ? .rescan(reason: "the watched folder was moved or deleted") : .changed(folder)])
            // A new folder at the same path (its parent's event came first) is watched now.
            if !folder.isEmpty { watchFolders(under: String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])) }
            return
        }
        watchFolders(under: folder)
        handler([.changed(folder)])
    }
}
#endif
