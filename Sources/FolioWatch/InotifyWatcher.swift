#if canImport(Glibc)
import FolioFolder
import Dispatch
import FolioFormat
import FolioSystem

/// The Linux watcher: one inotify watch per folder, read from a dispatch read source
/// until `EAGAIN`. New folders are watched as they appear and reported as changed, so
/// that files already inside them are read; a lost-events overflow asks for a rescan;
/// folders beyond the user's watch limit are polled instead, with a warning.
///
/// `@unchecked Sendable` is safe: every mutable property is read and written only on
/// `queue` — the read source's handler runs there, and ``start()``, ``stop()`` and
/// ``drain()`` enter it with `queue.sync`.
package final class InotifyWatcher: DirectoryWatcher, @unchecked Sendable {
    private let root: String
    private let handler: @Sendable ([WatchHint]) -> Void
    private let queue = DispatchQueue(label: "folio.watch.inotify")
    private let pollingInterval: Duration
    private let faults: FaultInjection?
    private var fd: Int32 = -1
    private var source: (any DispatchSourceRead)?
    private var stopped = false
    /// Looks every second at what folder is at the root's path: inotify says nothing when
    /// a watched folder is removed while a descriptor holds it open (the store's pin
    /// does), so removal and a folder made again (`rm -rf`, `git clone`, a sync tool
    /// making it anew) are seen here.
    private var pathCheck: (any DispatchSourceTimer)?
    /// The device and inode of the folder watched as the root.
    private var rootIdentity: (device: UInt64, inode: UInt64)?
    /// Whether the root's removal was reported (once, until a folder is there again).
    private var rootGone = false
    /// Watch descriptor → the folder it watches, relative to the root; and back.
    private var folderByWatch: [Int32: String] = [:]
    private var watchByFolder: [String: Int32] = [:]
    /// Polls the folders that could not be watched.
    private var fallback: PollingWatcher?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    /// A watcher of `root` reporting to `handler`; folders beyond the watch limit are
    /// polled every `pollingInterval`.
    package init(
        root: String, pollingInterval: Duration = .seconds(2), faults: FaultInjection? = nil,
        handler: @escaping @Sendable ([WatchHint]) -> Void
    ) {
        self.root = root
        self.faults = faults
        self.handler = handler
        self.pollingInterval = pollingInterval
    }

    deinit {
        // A watcher dropped without stop() still gives its inotify instance back.
        if !stopped {
            if let source {
                let fd = self.fd
                source.setCancelHandler { Syscall.close(fd) }
                source.cancel()
            } else if fd >= 0 {
                Syscall.close(fd)
            }
        }
        buffer.deallocate()
    }

    /// How many folders are watched (for tests and the benchmark).
    package var watchCount: Int { queue.sync { folderByWatch.count } }

    package func start() throws(SystemError) {
        let result: Result<Void, SystemError> = queue.sync {
            Result { () throws(SystemError) in
                fd = try Inotify.initialize()
                // The root itself must be watchable: a missing root is an error, not an empty folder.
                switch Result(catching: { () throws(SystemError) in try addWatch(RootedFolder(root)) }) {
                case .success(let wd): (folderByWatch[wd], watchByFolder[""]) = ("", wd)
                case .failure(let error):
                    Syscall.close(fd)
                    fd = -1
                    throw error
                }
                // Without the identity the next check takes the folder there as a new one: watched again and read whole, one rescan too many, nothing missed.
                rootIdentity = (try? RootedFolder(root)).map { ($0.device, $0.inode) }
                var hints: [WatchHint] = []
                watchFolders(under: "", into: &hints)
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
                timer.setEventHandler { [weak self] in self?.checkThePath() }
                timer.resume()
                pathCheck = timer
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                source.setEventHandler { [weak self] in self?.readEvents() }
                source.resume()
                self.source = source
                if !hints.isEmpty { handler(hints) }
            }
        }
        try result.get()
    }

    package func stop() {
        queue.sync {
            guard !stopped else { return }
            stopped = true
            let fd = self.fd
            if let source {
                source.setCancelHandler { Syscall.close(fd) }
                source.cancel()
            } else if fd >= 0 {
                Syscall.close(fd)
            }
            self.fd = -1
            pathCheck?.cancel()
            fallback?.stop()
        }
    }

    package func drain() {
        let fallback: PollingWatcher? = queue.sync {
            readEvents()
            return self.fallback
        }
        fallback?.drain()
    }

    /// Only the folders polled instead (past the watch limit) need word of reads.
    package func readerFound(_ files: [String]) {
        let fallback: PollingWatcher? = queue.sync { self.fallback }
        fallback?.readerFound(files)
    }

    package func withEventsQueued(_ body: () throws -> Void) rethrows {
        let source: (any DispatchSourceRead)? = queue.sync { self.source }
        source?.suspend()
        defer { source?.resume() }
        try body()
    }

    /// Reads every queued event, then reports the hints they give in one call.
    private func readEvents() {
        guard !stopped else { return }
        var hints: [WatchHint] = []
        while true {
            let count: Int
            do { count = try Inotify.read(fd, into: buffer) } catch {
                hints.append(.rescan(reason: "reading inotify events failed: \(error)"))
                break
            }
            if count == 0 { break }
            for event in InotifyEvent.decode(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                handle(event, into: &hints)
            }
        }
        if !hints.isEmpty { handler(hints) }
    }

    /// The hints `events` give, handled as if just read (for tests: a queue overflow
    /// cannot be caused on demand).
    package func hints(for events: [InotifyEvent]) -> [WatchHint] {
        queue.sync {
            var hints: [WatchHint] = []
            for event in events { handle(event, into: &hints) }
            return hints
        }
    }

    /// The hints one event gives, keeping the watch table in step with the folders.
    private func handle(_ event: InotifyEvent, into hints: inout [WatchHint]) {
        if event.mask & Inotify.queueOverflow != 0 {
            // Lost events may have created folders: watch everything again (an existing
            // watch gives back its descriptor), then read everything.
            watchFolders(under: "", into: &hints)
            hints.append(.rescan(reason: "the inotify event queue overflowed (fs.inotify.max_queued_events)"))
            return
        }
        // An event for a watch already dropped (its folder removed or moved away) says nothing.
        guard let folder = folderByWatch[event.watch] else { return }
        if event.mask & Inotify.ignored != 0 {
            folderByWatch[event.watch] = nil
            if watchByFolder[folder] == event.watch { watchByFolder[folder] = nil }
            return
        }
        guard !event.name.isEmpty else {
            // The watched folder itself was removed or moved: its parent reports the name.
            if event.mask & Inotify.selfGone != 0, folder.isEmpty, let hint = rootRemoved() { hints.append(hint) }
            return
        }
        let path = joined(folder, event.name)
        if event.mask & Inotify.isDirectory != 0 {
            guard !FolderRules.isIgnoredDirectory(event.name) else { return }
            if event.mask & (Inotify.movedFrom | Inotify.deleted) != 0 {
                unwatchFolders(under: path)
                hints.append(.changed(path))
            } else if event.mask & (Inotify.created | Inotify.movedTo) != 0 {
                // Watch first, then read: files written before the watch existed are found by the read.
                watchFolders(under: path, into: &hints)
                hints.append(.changed(path))
            }
            return
        }
        guard !FolderRules.isIgnoredFile(event.name) else { return }
        // Written in place, or just created (open(O_CREAT) leaves it open, empty, until
        // its writer writes and closes it): read once closed (bounded), never half-written.
        if event.mask & Inotify.closedAfterWriting != 0 {
            hints.append(.closed(path))
        } else if event.mask & (Inotify.modified | Inotify.created) != 0 {
            hints.append(.writing(path))
        } else {
            hints.append(.changed(path))
        }
    }

    /// The hint that the watched folder is gone, the first time only. Runs on `queue`.
    private func rootRemoved() -> WatchHint? {
        guard !rootGone else { return nil }
        rootGone = true
        return .rescan(reason: "the watched folder was removed or moved; following the folder at its path when one is there again")
    }

    /// Every second: the folder at the root's path. Still the one watched: nothing.
    /// None: its removal is reported (once). Another: it is watched whole and read
    /// again. Runs on `queue`.
    private func checkThePath() {
        guard !stopped else { return }
        // A probe: no folder at the path is the removal, reported just below.
        guard let now = try? RootedFolder(root) else {
            if let hint = rootRemoved() { handler([hint]) }
            return
        }
        if let rootIdentity, rootIdentity == (now.device, now.inode) { return }
        // Not watchable yet (made a moment ago, or gone again): the check runs again next second.
        guard let wd = try? addWatch(now) else { return }
        for (watch, folder) in folderByWatch where folder.isEmpty || watch == wd { folderByWatch[watch] = nil }
        (folderByWatch[wd], watchByFolder[""]) = ("", wd)
        (rootIdentity, rootGone) = ((now.device, now.inode), false)
        var hints: [WatchHint] = []
        watchFolders(under: "", into: &hints)
        hints.append(.rescan(reason: "a folder is at the watched path again: reading it"))
        handler(hints)
    }

    /// Watches `start` and every folder under it, each folder before its entries are
    /// listed, so that a folder created inside one meanwhile is either listed or reported.
    private func watchFolders(under start: String, into hints: inout [WatchHint]) {
        var unwatchable: [String] = []
        var pending = [start]
        // A root that cannot be opened has nothing to watch: the check of the path reports it gone.
        guard let rooted = try? RootedFolder(root) else { return }
        while let folder = pending.popLast() {
            if !folder.isEmpty || start.isEmpty {
                do {
                    let wd = try addWatch(folder.isEmpty ? rooted : RootedFolder(RelativePath(folder), below: rooted))
                    if let old = watchByFolder[folder], old != wd { folderByWatch[old] = nil }
                    if let stale = folderByWatch[wd], stale != folder, watchByFolder[stale] == wd { watchByFolder[stale] = nil }
                    (folderByWatch[wd], watchByFolder[folder]) = (folder, wd)
                } catch where error.code == Inotify.watchLimitReached {
                    // Polled instead, with everything under it.
                    unwatchable.append(folder)
                    continue
                } catch where error.code == Syscall.noSuchFile || error.code == Syscall.notADirectory || error.code == Syscall.symbolicLinkInTheWay {
                    // Gone already, or a link now (never followed): its parent's events name it.
                    continue
                } catch {
                    // Not watchable (its permissions): said, since edits in it are then
                    // seen only when something reads the folder again.
                    hints.append(.warning("cannot watch \(TextEscaping.name(joined(root, folder))): " + FileProblem.advice(error, writing: false, then: "start watching again")
                        + "; changes in it are seen only at the next full read (hourly)"))
                    continue
                }
            }
            pending += subfolders(of: folder, in: rooted)
        }
        guard !unwatchable.isEmpty else { return }
        // The limit is only quoted in the warning: "?" when it cannot be read.
        let limit = (try? FileReading.contents(ofFileNamedByUser: "/proc/sys/fs/inotify/max_user_watches"))
            .map { String(decoding: $0.filter { $0 >= 48 && $0 <= 57 }, as: UTF8.self) } ?? "?"
        hints.append(.warning(
            "cannot watch \(unwatchable.count) folder(s) such as '\(unwatchable[0].isEmpty ? "." : unwatchable[0])': the inotify watch limit "
                + "fs.inotify.max_user_watches (\(limit)) is reached; polling them every \(pollingInterval) instead. "
                + "Raise the limit with: sudo sysctl fs.inotify.max_user_watches=524288"))
        if let fallback {
            for folder in unwatchable { fallback.addScope(folder) }
        } else {
            let poller = PollingWatcher(root: root, scopes: Set(unwatchable), interval: pollingInterval, handler: handler)
            // Fails only when the root is gone, which the check of the path reports within a second.
            try? poller.start()
            fallback = poller
        }
        for folder in unwatchable { hints.append(.changed(folder)) }
    }

    /// The folders directly inside `folder` (links not followed, ignored folders skipped).
    private func subfolders(of folder: String, in rooted: RootedFolder) -> [String] {
        entries(of: rooted[folder]).filter { $0.type == .directory && !FolderRules.isIgnoredDirectory($0.name) }.map { joined(folder, $0.name) }
    }

    /// `inotify_add_watch` on the open folder `folder`, under the test's fault plan, if
    /// any (a task-local does not reach this queue by itself). Given a path, the kernel
    /// would follow a link that replaced a folder on the way to it and watch a folder
    /// outside the root; the folder was opened below the root, links refused.
    private func addWatch(_ folder: @autoclosure () throws(SystemError) -> RootedFolder) throws(SystemError) -> Int32 {
        let result = FaultInjection.$current.withValue(faults) {
            Result { () throws(SystemError) in try Inotify.addWatch(fd, openFolder: folder()) }
        }
        return try result.get()
    }

    /// Stops watching `start` and every folder under it.
    private func unwatchFolders(under start: String) {
        for (folder, wd) in watchByFolder where RelativePath.isAt(folder, orBelow: start) {
            Inotify.removeWatch(fd, wd)
            watchByFolder[folder] = nil
            folderByWatch[wd] = nil
        }
    }
}
#endif
