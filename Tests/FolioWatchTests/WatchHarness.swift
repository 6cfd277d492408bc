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
    /// What the watcher took, read and told, in order, with the test's own steps: printed
    /// when a property test fails, to tell which batch went wrong.
    let trace = TraceBox()

    /// A folder holding `files` (path → text), loaded and watched.
    init(files: [String: String], options: WatchOptions = WatchHarness.fastOptions) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-watch-\(UUID().uuidString)").path
        for (path, text) in files { try WatchHarness.write(text, to: root + "/" + path) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        store = try await Store.load(root, removedFiles: nil)
        let (box, trace) = (warningBox, trace)
        watcher = FolderWatcher(store: store, options: options) { text in
            box.append(text)
            trace.add("warning \(text)")
        }
        watcher.observeBatches { batch in trace.add("batch \(batch.sorted().map(TraceBox.escaped))") }
        watcher.observeSnapshots { snapshot in trace.add("read " + TraceBox.summary(of: snapshot)) }
        let stream = store.changes()
        toldBeforeListening = store.changeSetsTold
        listener = Task { @MainActor [weak self] in
            for await changes in stream {
                self?.changeSets.append(changes)
                trace.add("told \(TraceBox.summary(of: changes))")
            }
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

    /// Waits, without forcing a batch, until `condition` holds (true) or `timeout` passes
    /// (false). The bound is long (a minute) and costs a passing test nothing: this
    /// harness and the store's updates run on the main actor, which the whole suite
    /// shares, and under a full parallel run a wait of 5 s was seen to run out while
    /// the same test alone took milliseconds. A wait over 5 s is printed, so that a
    /// slow one is seen, not hidden.
    func waitUntil(
        timeout: Duration = .seconds(60), file: String = #fileID, line: Int = #line, _ condition: () -> Bool
    ) async -> Bool {
        let started = ContinuousClock.now
        let deadline = started + timeout
        defer { LongWaits.note(since: started, "WatchHarness.waitUntil (bound \(timeout))", file: file, line: line) }
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition()
    }

    /// Waits until the change listener has received every change set the store told of,
    /// and says whether it did. The store counts what it told, so this ends as soon as
    /// the listener has run; the bound (five minutes) only keeps a broken listener from
    /// hanging the suite. It is long because the listener runs on the main actor, which
    /// the whole suite shares: in a CI run it was seen to wait over 20 s for a turn.
    @discardableResult
    func drainChanges() async -> Bool {
        let deadline = ContinuousClock.now + .seconds(300)
        while changeSets.count < store.changeSetsTold - toldBeforeListening && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return changeSets.count >= store.changeSetsTold - toldBeforeListening
    }

    /// The bytes of the file at `path` as the store knows them.
    func storeText(_ path: String) -> String? {
        guard let record = store.state[path] else { return nil }
        return store.state.contents(of: record).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The record paths a fresh scan of the disk finds, with their fingerprints.
    func diskFingerprints() throws -> [String: Fingerprint] { try Self.diskFingerprints(of: root) }

    /// ``diskFingerprints()`` of the folder at `root`, from any thread.
    nonisolated static func diskFingerprints(of root: String) throws -> [String: Fingerprint] {
        let (state, _) = try FolderScan.read(root)
        return state.records.mapValues(\.fingerprint)
    }

    /// The record paths the store holds, with their fingerprints.
    var storeFingerprints: [String: Fingerprint] { store.state.records.mapValues(\.fingerprint) }

    nonisolated static func write(_ text: String, to path: String) throws {
        try FixtureFile.write(text, to: path)
    }
}

/// A bounded log of timed lines, written from any queue (see ``WatchHarness/trace``).
///
/// A line is kept as a closure and written out only when the trace is read (on a
/// failure): summing up every snapshot the watcher read, as it was read, cost seconds
/// of CPU on the main actor over a full run, which every other watch test waited for.
final class TraceBox: @unchecked Sendable {
    // @unchecked Sendable is safe: `lines` is only touched while holding `lock`.
    private let lock = NSLock()
    private var lines: [(at: Duration, text: @Sendable () -> String)] = []
    private let start = ContinuousClock.now

    func add(_ line: @escaping @Sendable @autoclosure () -> String) {
        let at = ContinuousClock.now - start
        lock.withLock {
            lines.append((at, line))
            if lines.count > 4_000 { lines.removeFirst(1_000) }
        }
    }

    /// The last `limit` lines, each stamped with its time in milliseconds.
    func tail(_ limit: Int) -> [String] {
        lock.withLock { Array(lines.suffix(limit)) }.map { line in
            let (seconds, attoseconds) = line.at.components
            return String(format: "%6.1f", Double(seconds) * 1000 + Double(attoseconds) / 1e15) + " " + line.text()
        }
    }

    /// A name with what is beyond ASCII written as `\u{…}`, so NFC and NFD show apart.
    static func escaped(_ path: String) -> String {
        path.unicodeScalars.map { $0.value < 0x80 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
    }

    static func summary(of snapshot: DiskSnapshot) -> String {
        let entries = snapshot.entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.map { path, entry in
            let shown: String
            switch entry {
            case .file(let bytes): shown = "file(\(bytes.count))"
            case .folder(let files): shown = files.count > 40 ? "folder(\(files.count) files)" : "folder(\(files.keys.sorted().map { "\(escaped($0)):\(files[$0]!.count)" }))"
            case .missing: shown = "missing"
            case .unreadable(let error): shown = "unreadable(\(error))"
            }
            return "\(escaped(path))=\(shown)"
        }
        let linked = snapshot.hasOtherNames.filter(\.value).keys.sorted().map(escaped)
        return "\(entries) linked:\(linked)\(snapshot.changedFileHasOtherNames ? " (a linked file changed)" : "")"
    }

    static func summary(of changes: ChangeSet) -> String {
        var parts: [String] = []
        if !changes.added.isEmpty { parts.append("+\(changes.added.map(escaped))") }
        if !changes.updated.isEmpty { parts.append("~\(changes.updated.map(escaped))") }
        if !changes.removed.isEmpty { parts.append("-\(changes.removed.map(escaped))") }
        if !changes.moved.isEmpty { parts.append("→\(changes.moved.map { "\(escaped($0.from))>\(escaped($0.to))" })") }
        return parts.joined(separator: " ")
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
