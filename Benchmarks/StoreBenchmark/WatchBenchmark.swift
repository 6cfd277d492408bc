// The watcher's side of Benchmarks/watch.py (run by hand, never a test).
import Foundation
import FolioStore
import FolioSystem
import FolioWatch

enum WatchBenchmark {
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// CPU seconds this process has used (user + system).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    @MainActor
    static func watchedStore(_ root: String) async throws -> (Store, FolderWatcher) {
        let store = try await Store.load(root, removedFiles: nil)
        let watcher = FolderWatcher(store: store)
        try watcher.start()
        await watcher.settle()
        return (store, watcher)
    }

    /// Waits for the next change set that satisfies `done`.
    @MainActor
    static func wait(_ stream: AsyncStream<ChangeSet>, until done: (ChangeSet) -> Bool) async {
        for await changes in stream where done(changes) { return }
    }

    /// Latency from a write on disk to the store holding it, over `count` edits of
    /// different files, with the default 50 ms quiet period.
    @MainActor
    static func latency(_ root: String, count: Int) async throws {
        let (store, watcher) = try await watchedStore(root)
        defer { watcher.stop() }
        let changes = store.changes()
        let paths = store.state.records.keys.sorted()
        var times: [Double] = []
        let clock = ContinuousClock()
        for edit in 0..<count {
            let path = paths[(edit * 7919) % paths.count]
            var bytes = try FileReading.contents(of: RootedFolder(root)[path])
            bytes += Array("\nedit \(edit)\n".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + path))
            let written = clock.now
            await wait(changes) { $0.updated.contains(path) }
            times.append(milliseconds(clock.now - written))
        }
        times.sort()
        print(String(format: "latency over %d edits: p50 %.1f ms, p99 %.1f ms, max %.1f ms", count,
                     percentile(times, 0.5), percentile(times, 0.99), times.last ?? 0))
    }

    /// `count` files created in new folders as fast as possible: the time from the last
    /// write to the store holding all of them.
    @MainActor
    static func burst(_ root: String, count: Int) async throws {
        let (store, watcher) = try await watchedStore(root)
        defer { watcher.stop() }
        let before = store.state.count
        let changes = store.changes()
        let clock = ContinuousClock()
        let started = clock.now
        for n in 0..<count {
            let folder = root + "/burst/\(n / 1000)"
            if n % 1000 == 0 { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try Data("---\ntitle: Burst \(n)\ndone: false\n---\nA note written in a burst.\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/n\(n).md"))
        }
        let lastWrite = clock.now
        if store.state.count < before + count {
            await wait(changes) { _ in store.state.count >= before + count }
        }
        let indexed = clock.now
        print(String(format: "burst of %d creations: written in %.3f s; all indexed %.3f s after the last write (%d records)",
                     count, milliseconds(lastWrite - started) / 1000, milliseconds(indexed - lastWrite) / 1000, store.state.count))
    }

    /// Sets up the watches only (no store), then says so on standard error, as `inotifywait -r` does.
    static func setup(_ root: String) throws {
        let clock = ContinuousClock()
        let started = clock.now
        #if canImport(Glibc)
        let watcher = InotifyWatcher(root: root) { _ in }
        try watcher.start()
        let count = watcher.watchCount
        #else
        let watcher = makeDirectoryWatcher(root: root, backend: .native) { _ in }
        try watcher.start()
        let count = -1
        #endif
        FileHandle.standardError.write(Data("Watches established.\n".utf8))
        print(String(format: "%d watches set up in %.3f s (in process)", count, milliseconds(clock.now - started) / 1000))
        watcher.stop()
    }

    /// CPU used by a loaded, watching store over `seconds` of an unchanging folder.
    @MainActor
    static func idle(_ root: String, seconds: Int) async throws {
        let (store, watcher) = try await watchedStore(root)
        defer { watcher.stop() }
        let before = cpuSeconds()
        try await Task.sleep(for: .seconds(seconds))
        let used = cpuSeconds() - before
        print(String(format: "idle for %d s watching %d records: %.4f CPU s (%.3f%% of one core)", seconds, store.state.count,
                     used, used / Double(seconds) * 100))
    }
}
