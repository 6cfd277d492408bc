#if os(macOS)
import FolioFolder
import CoreServices
import Dispatch
import Foundation
import FolioFormat
import FolioSystem

/// The macOS watcher: one FSEvents stream over the root with file-level events,
/// delivered on a queue of its own. Mirrors `InotifyWatcher.swift`: events become
/// ``WatchHint``s; `MustScanSubDirs`, `UserDropped` and `KernelDropped` (events lost)
/// ask for a rescan. (This file is compiled only on macOS.)
///
/// The stream does not hold the watcher: it holds a ``Box`` (retained and released by
/// the stream itself, through its context's callbacks) that points at the watcher
/// weakly. So a callback never runs on a freed watcher, and the last reference to the
/// watcher never ends in its stream's callback, where a `deinit` that waited on the
/// stream's queue would deadlock.
///
/// `@unchecked Sendable` is safe: `stream` and `resolvedRoot` are read and written
/// only while holding `lock`; the callback reads `resolvedRoot` under the lock too, and
/// the stream is retained around a flush so that a concurrent ``stop()`` cannot free it.
package final class FSEventsWatcher: DirectoryWatcher, @unchecked Sendable {
    private let root: String
    private let handler: @Sendable ([WatchHint]) -> Void
    private let queue = DispatchQueue(label: "folio.watch.fsevents")
    private var stream: FSEventStreamRef?
    private let lock = NSLock()
    /// The root as FSEvents spells it (symbolic links such as /var → /private/var resolved).
    private var resolvedRoot = ""

    /// What the stream's context holds: the watcher, weakly.
    ///
    /// `@unchecked Sendable` is safe: `watcher` is set once, in `init`, and a weak
    /// reference is read atomically by the runtime.
    private final class Box: @unchecked Sendable {
        weak var watcher: FSEventsWatcher?
        init(_ watcher: FSEventsWatcher) { self.watcher = watcher }
    }

    package init(root: String, handler: @escaping @Sendable ([WatchHint]) -> Void) {
        self.root = root
        self.handler = handler
    }

    deinit {
        // Never `queue.sync` here: the last reference may be dropped on `queue`. The stream
        // is stopped on its queue later; a callback meanwhile finds the box empty.
        guard let stream = lock.withLock({ self.stream }) else { return }
        let queue = self.queue
        nonisolated(unsafe) let owned = stream
        queue.async {
            FSEventStreamStop(owned)
            FSEventStreamInvalidate(owned)
            FSEventStreamRelease(owned)
        }
    }

    package func start() throws(SystemError) {
        let stamp = try FileStamp.of(RootedFolder(root).root)
        guard stamp.isDirectory else { throw SystemError(operation: .openDirectory, path: root, code: ENOTDIR) }
        // FSEvents reports real paths (/private/var/… for /var/…): resolve the root the same way.
        let resolved = try Syscall.realPath(root)
        lock.withLock { resolvedRoot = resolved }
        let box = Box(self)
        var context = FSEventStreamContext(
            version: 0, info: Unmanaged.passUnretained(box).toOpaque(),
            // The stream takes its own reference to the box, and gives it back when it is freed.
            retain: { info in
                guard let info else { return nil }
                _ = Unmanaged<Box>.fromOpaque(info).retain()
                return info
            },
            release: { info in
                guard let info else { return }
                Unmanaged<Box>.fromOpaque(info).release()
            },
            copyDescription: nil)
        let flags = FSEventStreamCreateFlags(
            kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer | kFSEventStreamCreateFlagUseCFTypes
                | kFSEventStreamCreateFlagWatchRoot)
        let created = withExtendedLifetime(box) {
            FSEventStreamCreate(
                nil, FSEventsWatcher.callback, &context, [resolved] as CFArray,
                FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.01, flags)
        }
        guard let stream = created else { throw SystemError(operation: .watch, path: root, code: EINVAL) }
        FSEventStreamSetDispatchQueue(stream, queue)
        guard FSEventStreamStart(stream) else {
            FSEventStreamInvalidate(stream)
            FSEventStreamRelease(stream)
            throw SystemError(operation: .watch, path: root, code: EIO)
        }
        lock.withLock { self.stream = stream }
    }

    package func stop() {
        let stream: FSEventStreamRef? = lock.withLock {
            defer { self.stream = nil }
            return self.stream
        }
        guard let stream else { return }
        // Stopped on its own queue, so no callback runs after this returns (stop() is
        // never called from that queue: hints reach the owner through its own queue).
        queue.sync {
            FSEventStreamStop(stream)
            FSEventStreamInvalidate(stream)
        }
        FSEventStreamRelease(stream)
    }

    package func drain() {
        let stream: FSEventStreamRef? = lock.withLock {
            if let stream = self.stream { FSEventStreamRetain(stream) }
            return self.stream
        }
        guard let stream else { return }
        FSEventStreamFlushSync(stream)
        FSEventStreamRelease(stream)
    }

    private static let lostEvents = FSEventStreamEventFlags(
        kFSEventStreamEventFlagMustScanSubDirs | kFSEventStreamEventFlagUserDropped | kFSEventStreamEventFlagKernelDropped
            | kFSEventStreamEventFlagRootChanged)

    private static let callback: FSEventStreamCallback = { _, info, count, paths, flags, _ in
        guard let info, let watcher = Unmanaged<Box>.fromOpaque(info).takeUnretainedValue().watcher else { return }
        let root = watcher.lock.withLock { watcher.resolvedRoot }
        let list = Unmanaged<CFArray>.fromOpaque(paths).takeUnretainedValue() as? [String] ?? []
        var hints: [WatchHint] = []
        for index in 0..<min(count, list.count) {
            if flags[index] & lostEvents != 0 {
                hints.append(.rescan(reason: "FSEvents dropped events"))
                continue
            }
            let path = list[index]
            guard path.hasPrefix(root) else { continue }
            var relative = String(path.dropFirst(root.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            let parts = relative.split(separator: "/").map(String.init)
            // inotify never watches .git/ and the like; FSEvents reports them: drop them here.
            if parts.dropLast().contains(where: FolderRules.isIgnoredDirectory) { continue }
            if let name = parts.last, FolderRules.isIgnoredFile(name) || FolderRules.isIgnoredDirectory(name) { continue }
            hints.append(.changed(relative))
        }
        if !hints.isEmpty { watcher.handler(hints) }
    }
}
#endif
