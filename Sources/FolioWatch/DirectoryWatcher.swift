import FolioSystem

/// A recursive watcher of one folder, on any platform: it reports ``WatchHint``s to
/// its handler, on a queue of its own, from ``start()`` until ``stop()``.
package protocol DirectoryWatcher: AnyObject, Sendable {
    /// Starts watching; hints that arrive before this returns are delivered too.
    func start() throws(SystemError)
    /// Stops watching and releases what the watcher holds; no hint follows.
    func stop()
    /// Delivers, before returning, every hint for changes made before the call
    /// (a kernel queue read to its end, a polling pass run now).
    func drain()
    /// Runs `body` while no event is read (the kernel queues them meanwhile, and drops
    /// what its queue cannot hold): for tests that must overflow that queue.
    func withEventsQueued(_ body: () throws -> Void) rethrows
    /// Tells the watcher which files its reader found (each path relative): a watcher
    /// that compares passes of its own (polling) reports one of them that its next pass
    /// does not find, since a file made and gone between two passes is never in a pass.
    func readerFound(_ files: [String])
}

extension DirectoryWatcher {
    /// A watcher with no kernel queue (polling) just runs `body`.
    package func withEventsQueued(_ body: () throws -> Void) rethrows { try body() }
    /// A watcher told of every change by its platform needs no word of reads.
    package func readerFound(_ files: [String]) {}
}

/// The watcher for `root` with `backend`, reporting to `handler`.
package func makeDirectoryWatcher(
    root: String, backend: WatchBackend, handler: @escaping @Sendable ([WatchHint]) -> Void
) -> any DirectoryWatcher {
    switch backend {
    case .polling(let interval):
        return PollingWatcher(root: root, scopes: [""], interval: interval, handler: handler)
    case .native:
        #if canImport(Glibc)
        return InotifyWatcher(root: root, handler: handler)
        #elseif os(macOS)
        return FSEventsWatcher(root: root, handler: handler)
        #elseif canImport(Darwin)
        return VnodeWatcher(root: root, handler: handler)
        #else
        return PollingWatcher(root: root, scopes: [""], interval: .seconds(2), handler: handler)
        #endif
    }
}

/// The relative path of `name` inside the folder at relative path `directory`.
func joined(_ directory: String, _ name: String) -> String {
    directory.isEmpty ? name : name.isEmpty ? directory : directory + "/" + name
}
