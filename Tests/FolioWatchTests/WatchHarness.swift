import Foundation
import FolioStore
import FolioSystem
import FolioTestSupport
@testable import FolioWatch

/// A store over a fresh temporary folder, its watcher running, and every change set
/// the store announced, for the tests that drive a real folder.
@MainActor
final class WatchHarness {
    let root: String
    let store: Store
    let watcher: FolderWatcher
    private(set) var changeSets: [ChangeSet] = []
    /// The store's count of change sets told when the listener began.
    private var toldBeforeListening = 0
    private(set) var warnings: [String] = []
    private var listener: Task<Void, Never>?
    private let warningBox = WarningBox()

    /// A folder holding `files` (path → text), loaded and watched.
    init(files: [String: String], options: WatchOptions = WatchHarness.fastOptions) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-watch-\(UUID().uuidString)").path
        for (path, text) in files { try WatchHarness.write(text, to: root + "/" + path) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        store = try await Store.load(root)
        let box = warningBox
        watcher = FolderWatcher(store: store, options: options) { box.append($0) }
        let stream = store.changes()
        toldBeforeListening = store.changeSetsTold
        listener = Task { @MainActor [weak self] in
            for await changes in stream { self?.changeSets.append(changes) }
        }
        try watcher.start()
        await watcher.settle()
    }

    /// Options for tests: a short quiet period, no periodic rescan.
    static var fastOptions: WatchOptions {
        var options = WatchOptions()
        options.quietPeriod = .milliseconds(20)
        options.rescanInterval = nil
        return options
    }

    func finish() {
        watcher.stop()
        listener?.cancel()
        try? FileManager.default.removeItem(atPath: root)
    }

    var warningsSeen: [String] { warningBox.all }

    /// Waits, without forcing a batch, until `condition` holds (true) or `timeout` passes (false).
    func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition()
    }

    /// Waits until the change listener has received every change set the store told of
    /// (ten seconds at most: a busy machine may take many turns to run the listener).
    func drainChanges() async {
        let deadline = ContinuousClock.now + .seconds(10)
        while changeSets.count < store.changeSetsTold - toldBeforeListening && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The bytes of the file at `path` as the store knows them.
    func storeText(_ path: String) -> String? {
        guard let record = store.state[path] else { return nil }
        return store.state.contents(of: record).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The record paths a fresh scan of the disk finds, with their fingerprints.
    func diskFingerprints() throws -> [String: Fingerprint] {
        let (state, _) = try FolderScan.read(root)
        return state.records.mapValues(\.fingerprint)
    }

    /// The record paths the store holds, with their fingerprints.
    var storeFingerprints: [String: Fingerprint] { store.state.records.mapValues(\.fingerprint) }

    nonisolated static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Warnings heard on the watcher's queue, read on the test's.
final class WarningBox: @unchecked Sendable {
    // @unchecked Sendable is safe: `items` is only touched while holding `lock`.
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ text: String) { lock.withLock { items.append(text) } }
    var all: [String] { lock.withLock { items } }
}
