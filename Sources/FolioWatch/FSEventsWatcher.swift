#if os(macOS)
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
/// `@unchecked Sendable` is safe: `stream` is written in ``start()`` and ``stop()``
/// only, which callers do not run at the same time, and the callback reads nothing
/// mutable.
package final class FSEventsWatcher: DirectoryWatcher, @unchecked Sendable {
    private let root: String
    private let handler: @Sendable ([WatchHint]) -> Void
    private let queue = DispatchQueue(label: "folio.watch.fsevents")
    private var stream: FSEventStreamRef?
    /// The root as FSEvents spells it (symbolic links such as /var → /private/var resolved).
    private var resolvedRoot = ""

    package init(root: String, handler: @escaping @Sendable ([WatchHint]) -> Void) {
        self.root = root
        self.handler = handler
    }

    deinit { stop() }

    package func start() throws(SystemError) {
        let stamp = try FileStamp.of(root)
        guard stamp.isDirectory else { throw SystemError(operation: .openDirectory, path: root, code: ENOTDIR) }
        resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        var context = FSEventStreamContext(
            version: 0, info: Unmanaged.passUnretained(self).toOpaque(), retain: nil, release: nil, copyDescription: nil)
        let flags = FSEventStreamCreateFlags(
            kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer | kFSEventStreamCreateFlagUseCFTypes
                | kFSEventStreamCreateFlagWatchRoot)
        guard let stream = FSEventStreamCreate(
            nil, FSEventsWatcher.callback, &context, [resolvedRoot] as CFArray,
            FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.01, flags)
        else { throw SystemError(operation: .watch, path: root, code: EINVAL) }
        FSEventStreamSetDispatchQueue(stream, queue)
        guard FSEventStreamStart(stream) else {
            FSEventStreamInvalidate(stream)
            FSEventStreamRelease(stream)
            throw SystemError(operation: .watch, path: root, code: EIO)
        }
        self.stream = stream
    }

    package func stop() {
        guard let stream else { return }
        FSEventStreamStop(stream)
        FSEventStreamInvalidate(stream)
        FSEventStreamRelease(stream)
        self.stream = nil
    }

    package func drain() {
        if let stream { FSEventStreamFlushSync(stream) }
    }

    private static let lostEvents = FSEventStreamEventFlags(
        kFSEventStreamEventFlagMustScanSubDirs | kFSEventStreamEventFlagUserDropped | kFSEventStreamEventFlagKernelDropped
            | kFSEventStreamEventFlagRootChanged)

    private static let callback: FSEventStreamCallback = { _, info, count, paths, flags, _ in
        guard let info else { return }
        let watcher = Unmanaged<FSEventsWatcher>.fromOpaque(info).takeUnretainedValue()
        let list = Unmanaged<CFArray>.fromOpaque(paths).takeUnretainedValue() as? [String] ?? []
        var hints: [WatchHint] = []
        for index in 0..<min(count, list.count) {
            if flags[index] & lostEvents != 0 {
                hints.append(.rescan(reason: "FSEvents dropped events"))
                continue
            }
            let path = list[index]
            guard path.hasPrefix(watcher.resolvedRoot) else { continue }
            var relative = String(path.dropFirst(watcher.resolvedRoot.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            let name = relative.split(separator: "/").last.map(String.init) ?? ""
            if !name.isEmpty && FolderRules.isIgnoredFile(name) { continue }
            hints.append(.changed(relative))
        }
        if !hints.isEmpty { watcher.handler(hints) }
    }
}
#endif
