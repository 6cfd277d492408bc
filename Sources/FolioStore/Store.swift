import FolioFolder
import Foundation
import FolioFormat
import FolioModel
import FolioSystem
import Observation

/// The folder held in memory: one state, changed only by actions through the
/// ``Reducer``, with the reducer's writes and deletes carried out here at the edge.
///
/// Main-actor isolated and `@Observable`, so a SwiftUI view can read ``state``
/// directly; other code observes ``changes()``. The state changes on the main actor;
/// files are written and deleted off it (``dispatch(_:)`` is `async` for that).
@MainActor
@Observable
public final class Store {
    /// The folder, pinned when the store was loaded: every read and write below it goes
    /// through its descriptor. A watcher pins it again when another folder is at the
    /// path (the folder removed and made again).
    @ObservationIgnored public private(set) var folder: RootedFolder
    /// The folder's path.
    public var root: String { folder.path }
    /// Everything the store knows. A view that reads it is redrawn on every change; one
    /// that reads only ``settings`` or one list below is redrawn only when that changes.
    public internal(set) var state: StoreState

    /// The settings of `folio.yaml`: changed only when a setting does.
    public private(set) var settings: Settings
    /// The todos in list order (``StoreState/todos``), kept: worked out again only when
    /// a change touches a todo, not on each read.
    public private(set) var todos: [Record] = []
    /// The workouts in the chosen order (``StoreState/workouts``), kept likewise.
    public private(set) var workouts: [Record] = []
    /// The recipes that parse, by path (``StoreState/recipes``), kept likewise.
    public private(set) var recipes: [Record] = []
    /// The quotes that parse, by path (``StoreState/quotes``), kept likewise.
    public private(set) var quotes: [Record] = []
    /// The records of each registered record type (``list(of:)``), kept likewise.
    public internal(set) var registeredLists: [Kind: [Record]] = [:]
    /// Counts the changes of ``problems``: read by it, so that a view showing them is
    /// redrawn when they change (they are worked out only once asked for).
    var problemsChanged = 0
    /// Each file's problems, by path (`folio.yaml`'s too), once ``problems`` has been asked
    /// for: kept up to date with each change from then on.
    @ObservationIgnored var problemsByPath: [String: [Problem]]?
    /// Which list each listed record is in, to tell which lists a change touches.
    @ObservationIgnored var listed: [String: Kind] = [:]

    @ObservationIgnored private var observers: [UUID: AsyncStream<ChangeSet>.Continuation] = [:]
    /// Paths a sync or fold of the app's `SyncedFolder` just wrote, and when: a change
    /// the watcher then reads there is told as `.sync` (``expectSyncWrites(_:)``).
    /// Kept behind a lock, not the main actor: the sync says what it wrote from its own
    /// queue the moment it is done, before the watcher can read those files.
    @ObservationIgnored private nonisolated let syncWrites = SyncWriteExpectations()
    /// The live queries made (``liveQuery(_:)``), updated as each change is told.
    @ObservationIgnored var liveQueries: [WeakLiveQuery] = []
    /// How many change sets observers have been told of: a test that listens waits until
    /// it has received as many, rather than for a number of scheduler turns.
    @ObservationIgnored package private(set) var changeSetsTold = 0
    /// The store's writes and deletes, one at a time in the order actions came: a serial
    /// queue, since an actor does not promise that order.
    @ObservationIgnored private let disk = DispatchQueue(label: "Folio.Store.disk")
    /// Paths with a write or delete under way, and how many.
    @ObservationIgnored private var inFlight: [String: Int] = [:]
    /// Paths the watcher saw while the store was writing them: read again afterwards.
    @ObservationIgnored private var heldBack: Set<String> = []
    /// The store's writes as they begin, for readers on other threads (the watcher).
    @ObservationIgnored public nonisolated let writes = WriteLog()

    /// Who hears of the store's writes the moment they are on disk (a folder's history).
    @ObservationIgnored package nonisolated let ownWrites = OwnWrites()

    /// Where removed records' files go (nil: they are deleted).
    @ObservationIgnored public nonisolated let removedFiles: (any RemovedFileKeeper)?

    /// A store over `root` holding `state` (see ``load(_:)``); the files of records it
    /// removes go to `removedFiles` (nil: deleted).
    public init(folder: RootedFolder, state: StoreState, removedFiles: (any RemovedFileKeeper)? = nil) {
        self.folder = folder
        self.state = state
        self.removedFiles = removedFiles
        settings = state.settings
        refreshLists(Store.listedKinds)
    }

    /// The kinds kept as lists: where the state works each out, and where the store keeps it.
    private static let lists: [(kind: Kind, fresh: KeyPath<StoreState, [Record]>, kept: ReferenceWritableKeyPath<Store, [Record]>)] = [
        (.todo, \.todos, \.todos), (.workout, \.workouts, \.workouts), (.recipe, \.recipes, \.recipes), (.quote, \.quotes, \.quotes),
    ]
    private static let listedKinds = Set(lists.map(\.kind))

    /// Works out again the lists `changes` touches, and the settings; assigns only what
    /// differs, so that observers of the rest are not told.
    private func refresh(after changes: ChangeSet) {
        if settings != state.settings { settings = state.settings }
        var touched = Set(changes.reordered)
        for path in changes.paths {
            if let kind = listed[path] { touched.insert(kind) }
            if let kind = state[path]?.kind { touched.insert(kind) }
        }
        refreshLists(touched.intersection(Store.listedKinds))
        refreshRegisteredLists(touched)
        refreshProblems(changes.settingsChanged ? nil : changes.paths)
    }

    private func refreshLists(_ kinds: Set<Kind>) {
        for (kind, fresh, kept) in Store.lists where kinds.contains(kind) {
            let list = state[keyPath: fresh], old = self[keyPath: kept]
            guard list != old else { continue }
            // Only this list's own entries: a record that moved to another kind's list in
            // this same change is that list's now.
            for record in old where listed[record.path] == kind { listed[record.path] = nil }
            for record in list { listed[record.path] = kind }
            self[keyPath: kept] = list
        }
    }

    /// Pins `folder` instead of the folder the store had: the same path, another folder
    /// there now. The caller reads it whole next.
    public func repin(_ folder: RootedFolder) {
        self.folder = folder
    }

    /// Reads every Markdown file under `root` (skipping what is never synced) and
    /// `folio.yaml`. The files of records it removes go to `removedFiles`, or are
    /// deleted (nil, the default: what `load(_:)` did before there was a trash).
    /// `import Folio` adds a `load(_:)` that keeps them in the folder's trash, which
    /// `Store.load(root)` then calls (Swift prefers the call that fills no default).
    public static func load(_ root: String, removedFiles: (any RemovedFileKeeper)? = nil) async throws(SystemError) -> Store {
        try await loadKeepingReads(root, removedFiles: removedFiles, keepingReads: false).store
    }

    /// ``load(_:removedFiles:)``, also giving every record file as it was read (with
    /// `keepingReads`): what the shared history records first, without reading the folder
    /// a second time. Without `indexingText` the store indexes no body words, now or
    /// after (a text query reads each candidate's file instead): for a follower that
    /// never searches by text, whose start the full-text index would slow by half.
    package static func loadKeepingReads(_ root: String, removedFiles: (any RemovedFileKeeper)?, keepingReads: Bool = true, indexingText: Bool = true) async throws(SystemError) -> (store: Store, reads: [FileRead]) {
        let folder = try RootedFolder(root)
        let snapshot = try await Task.detached {
            Result { () throws(SystemError) in try FolderScan.read(folder, keepingReads: keepingReads, indexingText: indexingText) }
        }.value.get()
        let store = Store(folder: folder, state: snapshot.0, removedFiles: removedFiles)
        store.loadProblems = snapshot.1
        return (store, snapshot.2)
    }

    /// Files or folders that could not be read when loading.
    @ObservationIgnored public private(set) var loadProblems: [SystemError] = []

    /// Runs an action: the reducer changes the state at once, on the main actor (a view
    /// shows the change in the same frame), then its writes and deletes are carried out
    /// off the main actor, in the order actions were dispatched — each only if the file
    /// on disk still holds what the store read; otherwise the file is left alone, read
    /// again, and the clash reported. Returns when the disk is done, with what was refused.
    @discardableResult
    public func dispatch(_ action: Action) async -> ActionResult {
        await send(action).value
    }

    /// Runs an action without waiting for the disk, for a button's handler: the state
    /// changes now; the task gives what was refused once the disk is done.
    ///
    /// A ``DiskChange`` sent by an app is checked, not taken on trust: the store reads
    /// the files it names and holds what is there (a word about a file that is not on
    /// disk makes no record), once the store's own writes to them are done.
    @discardableResult
    public func send(_ action: Action) -> Task<ActionResult, Never> {
        if case .disk = action {
            let paths = action.paths
            return Task {
                let (changes, errors) = await readAgain(paths)
                return ActionResult(changes: changes, errors: errors)
            }
        }
        let outcome = reduce(action)
        return Task { ActionResult(changes: outcome.changes, errors: await carryOut(outcome.effects, errors: outcome.errors)) }
    }

    /// Makes the state hold what `snapshot` read from disk, telling observers once
    /// with everything that changed. The store's own writes, read back, change nothing;
    /// a file the store is writing now is read again once that write is done.
    @discardableResult
    public func apply(_ snapshot: DiskSnapshot) -> ChangeSet {
        let (changes, stale) = applying(snapshot)
        // A failure to read again is not lost: the watcher's next snapshot lists the file in its problems.
        if !stale.isEmpty { Task { await readAgain(stale) } }
        return changes
    }

    /// ``apply(_:)``, then (with `waitingForRereads`) the paths it found stale read
    /// again before it returns: for a caller that must see the disk's state at once.
    @discardableResult
    public func apply(_ snapshot: DiskSnapshot, waitingForRereads: Bool) async -> ChangeSet {
        guard waitingForRereads else { return apply(snapshot) }
        let (changes, stale) = applying(snapshot)
        // As in apply(_:): a failure to read again is in the watcher's next snapshot's problems.
        if !stale.isEmpty { await readAgain(stale) }
        return changes
    }

    /// The work of ``apply(_:)``: the changes told, and the paths to read again.
    private func applying(_ snapshot: DiskSnapshot) -> (ChangeSet, [String]) {
        var changes = ChangeSet()
        var stale: [String] = []
        for action in state.actions(toMatch: snapshot) {
            let paths = action.paths
            // What the watcher read there may be from before the store's own write landed.
            if paths.contains(where: { inFlight[$0] != nil }) {
                heldBack.formUnion(paths)
                continue
            }
            // Read before a write of the store's began, applied after it ended: it would
            // undo that write for a moment. Read again instead.
            if let mark = snapshot.readAfterWrites, paths.contains(where: { writes.wrote($0, after: mark) }) {
                stale += paths
                continue
            }
            let outcome = reduce(action, telling: false)
            changes.append(outcome.changes)
            // Matching the disk writes nothing; were an action ever to, it is carried out as any.
            if !outcome.effects.isEmpty { Task { await carryOut(outcome.effects, errors: []) } }
        }
        if !syncWrites.isEmpty { changes.origin = origin(of: changes) }
        tell(changes)
        return (changes, stale)
    }

    /// Says that a sync or fold just wrote `paths` in the folder: the change the watcher
    /// reads there next (within a minute) is told with origin `.sync`. Best effort: a
    /// change read before this is said stays `.disk`.
    nonisolated package func expectSyncWrites(_ paths: [String]) {
        syncWrites.expect(paths, at: .now)
    }

    /// `.sync` when a sync or fold wrote every path `changes` is about (those paths are
    /// then no longer expected), else `.disk`.
    private func origin(of changes: ChangeSet) -> ChangeSet.Origin {
        syncWrites.takeIfAllExpected(changes.paths) ? .sync : .disk
    }

    /// The reducer's part of an action: the state changes and (unless the caller tells
    /// them once for many) observers hear of it.
    @discardableResult
    private func reduce(_ action: Action, telling: Bool = true) -> Reducer.Outcome {
        let compactions = state.index.compactions
        let folders = state.kindRules.folders
        // The reducer reads nothing: the files it edits are read here, at the edge.
        var outcome = Reducer.reduce(&state, action, contents: state.readContents(for: action))
        if state.kindRules.folders != folders { outcome.changes.append(rekind(from: folders)) }
        if case .disk = action {} else { outcome.changes.origin = .action }
        // Bytes read from disk are there already: the state reads them from there, rather
        // than hold a second copy of every file the watcher saw change.
        switch action {
        case .disk(.fileChanged(let path, let bytes)), .disk(.fileMoved(_, let path, let bytes)): state.clearPending(path, ifStill: bytes)
        case .disk(.fileRemoved), .disk(.settingsFileChanged), .todos, .workouts, .records: break
        }
        // The index swapped its structures for compact ones: the old ones' pages go back.
        if state.index.compactions != compactions { Syscall.releaseFreeMemory() }
        if telling { tell(outcome.changes) }
        return outcome
    }

    /// Drops what the index still keeps of files changed or removed since it last did
    /// so, and gives the freed memory back: the store then holds what a fresh load of
    /// the same files holds. Between these, edits leave at most as many dead entries as
    /// live ones. One pass over the index: for when the app is idle (the watcher calls it
    /// once its folder has been quiet), not after every edit.
    public func tidy() {
        guard state.index.deadCount > 0 else { return }
        state.compact()
        Syscall.releaseFreeMemory()
    }

    /// Carries out `effects` off the main actor, after those of earlier actions, then
    /// reads again, off it too, what was refused (and what the watcher saw meanwhile).
    private func carryOut(_ effects: [Effect], errors: [StoreError]) async -> [StoreError] {
        var errors = errors
        // A file the reducer found changed on disk is read again, so the state follows the disk.
        var reread = errors.filter { $0.kind == .changedOnDisk }.compactMap(\.path).filter { path in !effects.contains { $0.path == path } }
        if !effects.isEmpty {
            for effect in effects { inFlight[effect.path, default: 0] += 1 }
            writes.begin(effects.map(\.path))
            let (folder, keeper, own) = (folder, removedFiles, ownWrites)
            let results = await onDiskQueue {
                let results = effects.map { Self.perform($0, under: folder, keeping: keeper) }
                // Told here, on the disk queue, before a later action's write can replace them.
                own.tell(zip(effects, results).compactMap { effect, result in
                    guard case .done = result, case .write(let path, let bytes, _) = effect, let stamp = try? FileStamp.of(folder[path]) else { return nil }
                    return FileRead(path: path, bytes: bytes, stamp: stamp)
                })
                return results
            }
            for (effect, result) in zip(effects, results) {
                let path = effect.path
                inFlight[path] = inFlight[path].flatMap { $0 > 1 ? $0 - 1 : nil }
                switch result {
                case .done:
                    // On disk now: read from there, unless a later action produced newer bytes.
                    if case .write(_, let bytes, _) = effect { state.clearPending(path, ifStill: bytes) }
                case .changed(let onDisk):
                    // Someone changed the file since it was read: keep their version.
                    errors.append(.changedOnDisk(path))
                    if let onDisk { resync(path, onDisk: onDisk) } else { reread.append(path) }
                case .failed(let error):
                    errors.append(error)
                    reread.append(path)
                }
            }
            for path in heldBack where inFlight[path] == nil {
                heldBack.remove(path)
                reread.append(path)
            }
        }
        errors += await readAgain(reread).errors
        return errors
    }

    /// Runs `work` on the store's disk queue, after what is queued there, with a test's
    /// fault plan (task-locals do not cross into a dispatch queue).
    private func onDiskQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        let faults = FaultInjection.current
        return await withCheckedContinuation { done in
            disk.async { done.resume(returning: FaultInjection.$current.withValue(faults) { work() }) }
        }
    }

    /// Makes the state hold what is on disk at each of `paths`, read on the disk queue.
    /// A path the store has begun writing meanwhile is read once that write is done. A
    /// file that cannot be read is not a deleted one: the state keeps what it last read
    /// there, and the failure is returned, with what changed.
    @discardableResult
    private func readAgain(_ paths: [String]) async -> (changes: ChangeSet, errors: [StoreError]) {
        guard !paths.isEmpty else { return (ChangeSet(), []) }
        let folder = folder
        let read = await onDiskQueue {
            paths.map { path in Result { () throws(SystemError) in try AtomicFile.contentsIfPresent(folder[path]) } }
        }
        var failures: [StoreError] = []
        var changes = ChangeSet()
        for (path, result) in zip(paths, read) {
            if inFlight[path] != nil {
                heldBack.insert(path)
                continue
            }
            switch result {
            case .success(let bytes):
                changes.append(resync(path, onDisk: bytes))
            case .failure(let error) where error.isNotAFileToRead || error.isMissingPath:
                // A link, a FIFO or a folder in its place: no file the store reads, as at load.
                changes.append(resync(path, onDisk: nil))
            case .failure(let error):
                failures.append(StoreError(.io, path: path, FileProblem.reading(error, then: "try again") + "; Folio keeps what it last read there"))
            }
        }
        return (changes, failures)
    }

    /// Tells observers of `changes`, when there are any.
    func tell(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        changeSetsTold += 1
        refresh(after: changes)
        liveQueries.removeAll { $0.query == nil }
        for live in liveQueries { live.query?.follow(changes, in: state) }
        for observer in observers.values { observer.yield(changes) }
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

    /// Makes the state hold `bytes`, read at `path` now (nil: no file there), and tells observers.
    @discardableResult
    private func resync(_ path: String, onDisk bytes: [UInt8]?) -> ChangeSet {
        let action: Action = path == Settings.fileName
            ? .settingsFileChanged(bytes: bytes)
            : bytes.map { .fileChanged(path: path, bytes: $0) } ?? .fileRemoved(path: path)
        return reduce(action).changes
    }

    /// The bytes of `path` and its stamp once read, or nil when there is no such file.
    private nonisolated static func readStamped(_ path: RootedPath) throws(SystemError) -> (bytes: [UInt8], stamp: FileStamp)? {
        do { return try FileReading.contentsAndStamp(of: path) } catch where error.code == Syscall.noSuchFile { return nil }
    }

    /// What carrying out one effect came to.
    enum EffectResult: Sendable {
        /// Written or deleted.
        case done
        /// The file is no longer what the store read; here is what it holds (nil: gone;
        /// not known: read it again).
        case changed(onDisk: [UInt8]??)
        /// The disk refused.
        case failed(StoreError)
    }

    /// Carries out `effect` under `root`: off the main actor, on the store's disk queue.
    nonisolated static func perform(_ effect: Effect, under root: RootedFolder, keeping keeper: (any RemovedFileKeeper)? = nil) -> EffectResult {
        let path = effect.path
        let expected: Fingerprint?
        switch effect {
        case .write(_, _, let replacing): expected = replacing
        case .delete(_, let expecting): expected = expecting
        }
        let full = root[path]
        do {
            let read = try readStamped(full)
            let onDisk = read?.bytes
            guard onDisk.map(Fingerprint.init) == expected else { return .changed(onDisk: .some(onDisk)) }
            switch effect {
            case .write(_, let bytes, _):
                // Checked again at the rename: a save landing after the check above stays.
                let written = try AtomicFile.write(bytes, to: full, mode: read?.stamp.permissions) { now in
                    guard let read else { return now == nil }
                    return now.map { $0.isSameFile(as: read.stamp) } ?? false
                }
                guard written else { return .changed(onDisk: nil) }
            case .delete:
                // Moved aside and checked, never unlinked by name: a save landing after
                // the check above goes back in place.
                guard let read else { return .changed(onDisk: nil) }
                if let keeper {
                    guard try keeper.keep(path, from: root, expected: read.stamp) else { return .changed(onDisk: nil) }
                } else {
                    guard try AtomicFile.remove(full, expecting: read.stamp) else { return .changed(onDisk: nil) }
                }
            }
            return .done
        } catch {
            return .failed(StoreError(.io, path: path, "\(error.reason); nothing was changed: check that its folder can be written and the disk is not full"))
        }
    }
}
