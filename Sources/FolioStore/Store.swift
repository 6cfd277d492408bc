import Foundation
import FolioFormat
import FolioModel
import FolioSystem
import Observation

/// The folder held in memory: one state, changed only by actions through the
/// ``Reducer``, with the reducer's writes and deletes carried out here at the edge.
///
/// Main-actor isolated and `@Observable`, so a SwiftUI view can read ``state``
/// directly; other code observes ``changes()``.
@MainActor
@Observable
public final class Store {
    /// The folder.
    public let root: String
    /// Everything the store knows.
    public private(set) var state: StoreState

    @ObservationIgnored private var observers: [UUID: AsyncStream<ChangeSet>.Continuation] = [:]

    /// A store over `root` holding `state` (see ``load(_:)``).
    public init(root: String, state: StoreState) {
        self.root = root
        self.state = state
    }

    /// Reads every Markdown file under `root` (skipping what is never synced) and `folio.yaml`.
    public static func load(_ root: String) async throws(SystemError) -> Store {
        let snapshot = try await Task.detached {
            Result { () throws(SystemError) in try FolderScan.read(root) }
        }.value.get()
        let store = Store(root: root, state: snapshot.0)
        store.loadProblems = snapshot.1
        return store
    }

    /// Files or folders that could not be read when loading.
    @ObservationIgnored public private(set) var loadProblems: [SystemError] = []

    /// Runs an action: the reducer changes the state, then its writes and deletes are
    /// carried out — each only if the file on disk still holds what the store read;
    /// otherwise the file is left alone, re-read, and the clash reported.
    @discardableResult
    public func dispatch(_ action: Action) -> [StoreError] {
        let (changes, errors) = run(action)
        if !changes.isEmpty {
            for observer in observers.values { observer.yield(changes) }
        }
        return errors
    }

    /// Makes the state hold what `snapshot` read from disk, telling observers once
    /// with everything that changed. The store's own writes, read back, change nothing.
    @discardableResult
    public func apply(_ snapshot: DiskSnapshot) -> ChangeSet {
        var changes = ChangeSet()
        for action in state.actions(toMatch: snapshot) { changes.append(run(action).0) }
        if !changes.isEmpty {
            for observer in observers.values { observer.yield(changes) }
        }
        return changes
    }

    /// Runs one action and its effects; observers are told by the caller.
    private func run(_ action: Action) -> (ChangeSet, [StoreError]) {
        let compactions = state.index.compactions
        var outcome = Reducer.reduce(&state, action)
        for effect in outcome.effects {
            if let error = perform(effect) { outcome.errors.append(error) }
        }
        // A file the reducer found changed on disk is read again, so the state follows the disk.
        for error in outcome.errors where error.kind == .changedOnDisk {
            if let path = error.path, !outcome.effects.contains(where: { $0.path == path }) { resync(path) }
        }
        // What the reducer produced is on disk now (or was refused and re-read): read it from there.
        state.clearPending()
        // The index swapped its structures for compact ones: the old ones' pages go back.
        if state.index.compactions != compactions { Syscall.releaseFreeMemory() }
        return (outcome.changes, outcome.errors)
    }

    /// What each later action changes, until the stream is dropped.
    public func changes() -> AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream()
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.observers[id] = nil }
        }
        return stream
    }

    /// The records matching a query.
    public func query(_ text: String) throws(QueryError) -> [Record] {
        state.records(matching: try Query(parsing: text))
    }

    /// Makes the state hold what is on disk at `path` now, and tells observers.
    private func resync(_ path: String, onDisk: [UInt8]?? = nil) {
        let bytes = onDisk ?? (try? AtomicFile.contentsIfPresent(root + "/" + path)) ?? nil
        let action: Action = path == Settings.fileName
            ? .settingsFileChanged(bytes: bytes)
            : bytes.map { .fileChanged(path: path, bytes: $0) } ?? .fileRemoved(path: path)
        let outcome = Reducer.reduce(&state, action)
        if !outcome.changes.isEmpty {
            for observer in observers.values { observer.yield(outcome.changes) }
        }
    }

    /// The bytes of `path` and its stamp once read, or nil when there is no such file.
    private static func readStamped(_ path: String) throws(SystemError) -> (bytes: [UInt8], stamp: FileStamp)? {
        let fd: Int32
        do { fd = try Syscall.openForReading(path) } catch where error.code == Syscall.noSuchFile { return nil }
        defer { Syscall.close(fd) }
        return try FileReading.contents(ofOpen: fd, path: path)
    }

    private func perform(_ effect: Effect) -> StoreError? {
        let path = effect.path
        let expected: Fingerprint?
        switch effect {
        case .write(_, _, let replacing): expected = replacing
        case .delete(_, let expecting): expected = expecting
        }
        let full = root + "/" + path
        do {
            let read = try Self.readStamped(full)
            let onDisk = read?.bytes
            guard onDisk.map(Fingerprint.init) == expected else {
                // Someone changed the file since it was read: keep their version.
                resync(path, onDisk: onDisk)
                return .changedOnDisk(path)
            }
            switch effect {
            case .write(_, let bytes, _):
                // Checked again at the rename: a save landing after the check above stays.
                let written = try AtomicFile.write(bytes, to: full, mode: read?.stamp.permissions) { now in
                    guard let read else { return now == nil }
                    return now.map { $0.isSameFile(as: read.stamp) } ?? false
                }
                guard written else {
                    resync(path)
                    return .changedOnDisk(path)
                }
            case .delete: try AtomicFile.remove(full)
            }
            return nil
        } catch {
            return StoreError(.io, path: path, "\(error.reason); nothing was changed: check that its folder can be written and the disk is not full")
        }
    }
}

/// Reading a whole folder into a state.
public enum FolderScan {
    /// The Markdown records under `root`, skipping what is never synced, and the folders that could not be read.
    public static func markdownFiles(under root: String) throws(SystemError) -> (paths: [String], problems: [SystemError]) {
        try DirectoryWalk.files(under: root, descend: { !FolderRules.isIgnoredDirectory($0) }, include: FolderRules.isMarkdown)
    }

    /// The state of the folder at `root`, and what could not be read.
    public static func read(_ root: String) throws(SystemError) -> (StoreState, [SystemError]) {
        let walk = try markdownFiles(under: root)
        var (state, problems) = StoreState.load(paths: walk.paths, from: FolderSource(root: root))
        problems = walk.problems + problems
        let settings = try? AtomicFile.contentsIfPresent(root + "/" + Settings.fileName)
        _ = Reducer.reduce(&state, .settingsFileChanged(bytes: settings ?? nil))
        return (state, problems)
    }
}
