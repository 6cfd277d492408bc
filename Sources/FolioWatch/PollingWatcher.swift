import FolioFolder
import Dispatch
import FolioFormat
import FolioSystem

/// A watcher that needs no notifications: every `interval` it stamps (`lstat`) every
/// file under its folders and reports the paths whose stamp appeared, changed or
/// vanished. For network file systems, and for folders beyond the inotify limit.
///
/// `@unchecked Sendable` is safe: every mutable property is read and written only on
/// `queue` (the timer fires there; the public methods enter it with `queue.sync`).
package final class PollingWatcher: DirectoryWatcher, @unchecked Sendable {
    private let root: String
    private let interval: Duration
    private let handler: @Sendable ([WatchHint]) -> Void
    private let queue = DispatchQueue(label: "folio.watch.polling")
    private var scopes: Set<String>
    /// The stamps of the last scan, by path as bytes: the NFC and NFD spellings of one
    /// name are two files, which a `String` key would take for one.
    private var stamps: [PathBytes: FileStamp] = [:]
    /// The scan before the last one (see ``changedPaths(now:last:before:)``).
    private var olderStamps: [PathBytes: FileStamp] = [:]
    /// Files the reader found since the last pass (see ``readerFound(_:)``).
    private var foundByReader: Set<PathBytes> = []
    private var timer: (any DispatchSourceTimer)?

    /// A watcher of the folders `scopes` (relative to `root`; `""` is the root).
    package init(root: String, scopes: Set<String>, interval: Duration, handler: @escaping @Sendable ([WatchHint]) -> Void) {
        self.root = root
        self.scopes = scopes
        self.interval = interval
        self.handler = handler
    }

    deinit { timer?.cancel() }

    package func start() throws(SystemError) {
        // The root must be there: a missing root is an error, not an empty folder.
        let stamp = try FileStamp.of(RootedFolder(root).root)
        guard stamp.isDirectory else { throw SystemError(operation: .openDirectory, path: root, code: Syscall.notADirectory) }
        queue.sync {
            stamps = scan()
            olderStamps = stamps
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let nanoseconds = Int(clamping: min(interval.components.seconds, 86_400)) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
            timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
            timer.setEventHandler { [weak self] in self?.poll() }
            timer.resume()
            self.timer = timer
        }
    }

    package func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    package func drain() { queue.sync { poll() } }

    /// Adds a folder to poll, stamping what it holds now.
    package func addScope(_ folder: String) {
        queue.sync {
            scopes.insert(folder)
            let found = scan(folder)
            stamps.merge(found) { _, new in new }
            olderStamps.merge(found) { _, new in new }
        }
    }

    package func readerFound(_ files: [String]) {
        queue.sync {
            for path in files where scopes.contains(where: { RelativePath.isAt(path, orBelow: $0) }) {
                foundByReader.insert(PathBytes(path))
            }
        }
    }

    private func poll() {
        let now = scan()
        let changed = Self.changedPaths(now: now, last: stamps, before: olderStamps, foundByReader: foundByReader)
        foundByReader = []
        olderStamps = stamps
        stamps = now
        if !changed.isEmpty { handler(changed.map(\.path).sorted().map(WatchHint.changed)) }
    }

    /// The paths whose stamp `now` differs from the last scan's or the one before: a
    /// change is reported twice, so that a store that read a path while it was
    /// changing back and forth (a folder moved out and back between a scan and the
    /// read) reads it once more, after. And the files the reader found since the last
    /// scan that `now` does not hold: made and gone between two scans, they are in
    /// neither, yet the store holds them. Pure.
    static func changedPaths<Path: Hashable>(
        now: [Path: FileStamp], last: [Path: FileStamp], before: [Path: FileStamp], foundByReader: Set<Path> = []
    ) -> Set<Path> {
        var changed: Set<Path> = []
        for scan in [last, before] {
            for (path, stamp) in now where scan[path] != stamp { changed.insert(path) }
            for path in scan.keys where now[path] == nil { changed.insert(path) }
        }
        for path in foundByReader where now[path] == nil { changed.insert(path) }
        return changed
    }

    private func scan() -> [PathBytes: FileStamp] {
        var all: [PathBytes: FileStamp] = [:]
        for scope in scopes { all.merge(scan(scope)) { _, new in new } }
        return all
    }

    /// The stamps of the files under one folder.
    private func scan(_ scope: String) -> [PathBytes: FileStamp] {
        var found: [PathBytes: FileStamp] = [:]
        // A poll of a root that is gone finds nothing; the watcher's check of its path says so.
        guard let rooted = try? RootedFolder(root) else { return found }
        for folder in folders(under: scope, in: root) {
            // Only what changed is polled: a folder or file that cannot be read is reported by the read of the folder that follows (the snapshot's problems).
            for entry in (try? rooted[folder].entries()) ?? [] {
                guard entry.type != .directory, !FolderRules.isIgnoredFile(entry.name),
                      let stamp = try? FileStamp.of(rooted[joined(folder, entry.name)]), !stamp.isDirectory
                else { continue }
                found[PathBytes(joined(folder, entry.name))] = stamp
            }
        }
        return found
    }
}
