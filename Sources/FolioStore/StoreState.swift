import FolioFolder
import Foundation
import FolioFormat
import FolioModel
import FolioSystem

/// Everything the store knows: every file by relative path (invalid ones too), the
/// indexes, the settings and the list orders. A value: the reducer changes it, and
/// nothing else does.
public struct StoreState: Sendable {
    /// The records by id (dead ids hold nil); ``index`` maps paths to ids.
    fileprivate(set) var recordsByID: [Record?] = []

    /// The record at `path`.
    public subscript(path: String) -> Record? {
        index.id(of: path).flatMap { recordsByID[Int($0)] }
    }

    /// How many records there are.
    public var count: Int { index.idByPath.count }

    /// Every record by path (built on each call: use ``subscript(_:)`` for one).
    public var records: [String: Record] {
        Dictionary(uniqueKeysWithValues: recordsByID.lazy.compactMap { $0 }.filter { index.id(of: $0.path) != nil }.map { ($0.path, $0) })
    }
    /// The indexes over ``records``.
    var index = StoreIndex()
    /// The folder's `folio.yaml` settings.
    public internal(set) var settings = Settings()
    /// How the workout list is ordered.
    public internal(set) var workoutOrder = WorkoutOrder.date
    /// The bytes of `folio.yaml` as last read or written, nil when there is none.
    public internal(set) var settingsBytes: [UInt8]?
    /// The kinds `folio.yaml` declares and the record types the app registered
    /// (``Store/register(_:)``): what the reducer checks adds and updates with, and
    /// which folders are whose.
    public internal(set) var kindRules = KindRules()
    /// Where file bytes are read when needed.
    public let source: any ContentSource
    /// Bytes the reducer produced that the source may not hold yet (the ``Store``
    /// clears this once it has written them).
    var pending: [String: [UInt8]] = [:]

    /// An empty state.
    public init() { source = MemorySource([:]) }

    /// A state holding `files` (path → bytes).
    public init(files: [String: [UInt8]]) {
        let (state, _) = StoreState.load(paths: files.keys.sorted(), from: MemorySource(files))
        self = state
    }

    /// A state of the files at `paths` read from `source`, and the files that could
    /// not be read. Files are read, parsed and indexed in chunks on every core, each
    /// chunk into a small index of its own; the chunk indexes are then merged, so the
    /// shared index sees one insertion per word and chunk rather than per word and
    /// file. Merging is sequential: each chunk is merged, in order, by the core that
    /// finishes the one next in line, while the others go on parsing. Only
    /// fingerprints of the bytes are kept.
    public static func load(paths: [String], from source: any ContentSource) -> (StoreState, [SystemError]) {
        load(paths: paths, from: source, folders: [:])
    }

    /// ``load(paths:from:)``, with `folders` naming the kinds of declared folders.
    static func load(paths: [String], from source: any ContentSource, folders: [String: Kind]) -> (StoreState, [SystemError]) {
        let (state, problems, _) = load(paths: paths, from: source, folders: folders, keepingReads: false)
        return (state, problems)
    }

    /// ``load(paths:from:folders:)``; with `keepingReads`, also every file read with its
    /// stamp (where the source has stamps), in path order, for a second reader of the
    /// same files (the shared history's first record): the folder is read once. Without
    /// `indexingText`, the body's words and word pairs are not indexed (nor ever after):
    /// for a store nothing searches by text, whose text queries then read each
    /// candidate's file instead.
    static func load(paths: [String], from source: any ContentSource, folders: [String: Kind], keepingReads: Bool, indexingText: Bool = true) -> (StoreState, [SystemError], [FileRead]) {
        let paths = paths.sorted()
        var empty = StoreState(source: source)
        empty.index.indexesText = indexingText
        let target = LoadTarget(empty)
        target.state.recordsByID.reserveCapacity(paths.count)
        target.state.index.reserveCapacity(paths.count)
        let chunkSize = StoreIndex.Chunk.capacity
        let chunkCount = (paths.count + chunkSize - 1) / chunkSize
        let kept = ConcurrentSlots<[FileRead]>(count: keepingReads ? chunkCount : 0)
        // Every chunk is a job of its own, taken by whichever core is free, and merged in
        // order by the core that finishes the chunk next in line (``LoadTarget/finished``).
        // In batches of eight with a merge beside them, each batch waited for its slowest
        // chunk with the other core idle: 7% of a 100,000-file load, more at 10,000.
        _ = ConcurrentSlots<Void>.map(chunkCount) { c in
            let start = c * chunkSize
            // Provisional ids from the path's position; merging rebases them past unreadable files.
            var chunk = StoreIndex.Chunk(firstID: Int32(start))
            var unreadable: [SystemError] = []
            let range = start..<min(start + chunkSize, paths.count)
            let reads = keepingReads ? source.contentsAndStamps(of: paths[range]) : source.contents(of: paths[range]).map { $0.map { (bytes: $0, stamp: nil) } }
            var keep: [FileRead] = []
            for (i, read) in zip(range, reads) {
                switch read {
                case .success(let (bytes, stamp)):
                    let (record, entry) = StoreState.prepare(path: paths[i], bytes: bytes, folders: folders, indexingText: indexingText)
                    chunk.add(record, entry)
                    if keepingReads, let stamp { keep.append(FileRead(path: paths[i], bytes: bytes, stamp: stamp)) }
                case .failure(let error):
                    unreadable.append(error)
                }
            }
            if keepingReads { kept.set(c, keep) }
            chunk.finish()
            target.finished(c, (chunk, unreadable))
        }
        var state = target.state
        target.state = StoreState(source: source)
        state.index.finishBulk()
        return (state, target.problems, kept.values.flatMap { $0 ?? [] })
    }

    private init(source: any ContentSource) { self.source = source }

    /// A file's record and index entry, parsing it once.
    static func prepare(path: String, bytes: [UInt8], folders: [String: Kind], indexingText: Bool = true) -> (Record, StoreIndex.Entry) {
        do {
            return prepare(path: path, document: try Document(bytes: bytes, path: path), folders: folders, indexingText: indexingText)
        } catch {
            return (Record(path: path, invalidBytes: bytes, error: error, folders: folders), StoreIndex.Entry())
        }
    }

    /// The record and index entry of a parsed document.
    static func prepare(path: String, document: Document, folders: [String: Kind], indexingText: Bool = true) -> (Record, StoreIndex.Entry) {
        let record = Record(path: path, document: document, folders: folders)
        return (record, StoreIndex.Entry(record, document: document, indexingText: indexingText))
    }

    /// Adds or replaces a record, holding its bytes until the store has written them.
    mutating func put(_ prepared: (Record, StoreIndex.Entry), bytes: [UInt8]) {
        let record = prepared.0
        var entry = prepared.1
        // A store without a text index keeps none for changed records either.
        if !index.indexesText { (entry.words, entry.pairs) = ([], []) }
        if let old = index.id(of: record.path) { recordsByID[Int(old)] = nil }
        recordsByID.append(record)
        pending[record.path] = bytes
        index.insert(record, entry)
        compactIfWorthIt()
        checkAfterChange()
    }

    /// Renumbers the index and the records by id once enough records are dead, so
    /// edits and removals leave nothing behind for good.
    private mutating func compactIfWorthIt() {
        if index.needsCompaction { compact() }
    }

    /// Drops every dead id from the index and the records, now.
    mutating func compact() {
        let newID = index.compact()
        recordsByID = zip(recordsByID, newID).filter { $0.1 >= 0 }.map(\.0)
        checkAfterChange(always: true)
    }

    /// Debug builds check the invariants after every change, as swift-collections does;
    /// past 64 records only after a renumbering (each check walks every posting list),
    /// where a mistake would spread furthest. (At 256, these checks were 7 s of the main
    /// actor's CPU in a full test run; the index's own property tests check larger
    /// states explicitly.)
    private func checkAfterChange(always: Bool = false) {
        #if DEBUG
        if always || count <= 64 { _checkInvariants() }
        #endif
    }

    /// The bytes of a record: produced by the reducer, or read from the source — and
    /// only if they are still the bytes the record was made from.
    public func contents(of record: Record) -> [UInt8]? {
        // A file that cannot be read is not known to hold the record's bytes: the caller refuses (changed on disk) and the store reads it again, which reports the error.
        guard let bytes = pending[record.path] ?? (try? source.contents(of: record.path)),
              Fingerprint(bytes) == record.fingerprint
        else { return nil }
        return bytes
    }

    /// The bytes of the record at `path` (see ``contents(of:)``).
    public func contents(at path: String) -> [UInt8]? { self[path].flatMap(contents(of:)) }

    /// The front matter of the record at `path` (see ``fields(of:)``); empty when there is none.
    public func fields(at path: String) -> YAMLMapping { document(at: path)?.fields ?? YAMLMapping() }

    /// The parsed document of the record at `path` (see ``document(of:)``).
    public func document(at path: String) -> Document? { self[path].flatMap(document(of:)) }

    /// A record's parsed document, when its file still holds what the record was made from.
    public func document(of record: Record) -> Document? {
        // A file that does not parse has no document: nil says so, and the record is listed as invalid already.
        contents(of: record).flatMap { try? Document(bytes: $0, path: record.path) }
    }

    /// A record's front matter (empty when it does not parse or changed on disk).
    public func fields(of record: Record) -> YAMLMapping { document(of: record)?.fields ?? YAMLMapping() }

    /// Forgets the bytes held for `path` once they are on disk, where the source reads
    /// them — unless a later action produced others.
    mutating func clearPending(_ path: String, ifStill bytes: [UInt8]) {
        if pending[path] == bytes { pending[path] = nil }
    }

    /// Removes a record.
    mutating func remove(_ path: String) {
        if let id = index.id(of: path) { recordsByID[Int(id)] = nil }
        pending[path] = nil
        index.remove(path)
        compactIfWorthIt()
        checkAfterChange()
    }

    /// The paths of every record, in no order.
    var paths: Dictionary<String, Int32>.Keys { index.idByPath.keys }

    /// Every record of `kind`, in path order.
    public func records(of kind: Kind) -> [Record] {
        (index.byKind[kind] ?? []).filter(index.isLive).sorted { index.rank[Int($0)] < index.rank[Int($1)] }
            .compactMap(record(id:))
    }

    /// Files with a conflict copy beside them, each with its copies (Folio's, Syncthing's,
    /// Dropbox's), in path order: what an app should ask its user to settle.
    public var conflicts: [(file: String, copies: [String])] {
        var copies: [String: [String]] = [:]
        let names = conflictCopyNames
        for path in index.idByPath.keys {
            if let original = names.originalOfAnyCopy(path) { copies[original, default: []].append(path) }
        }
        return copies.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sorted()) }
    }

    /// The records that do not parse, in path order.
    public var invalidRecords: [Record] { recordsByID.compactMap { $0 }.filter { !$0.isValid }.sorted { $0.path < $1.path } }

    /// The todos in list order: by `order`, then by path.
    public var todos: [Record] {
        listed(.todo).enumerated()
            .sorted { ($0.element.order ?? Int.max, $0.offset) < ($1.element.order ?? Int.max, $1.offset) }.map(\.element)
    }

    /// The workouts in ``workoutOrder``.
    public var workouts: [Record] {
        let list = listed(.workout)
        switch workoutOrder {
        case .date: return list.sorted { ($0.dateTime?.timeIntervalSince1970 ?? -.infinity) > ($1.dateTime?.timeIntervalSince1970 ?? -.infinity) }
        case .distance: return list.sorted { ($0.distance ?? -1) > ($1.distance ?? -1) }
        case .complexity: return list.sorted { ($0.complexity.map { Complexity.allCases.firstIndex(of: $0)! } ?? -1) > ($1.complexity.map { Complexity.allCases.firstIndex(of: $0)! } ?? -1) }
        }
    }

    /// Checks the indexes against the records; does nothing in release builds.
    public func _checkInvariants() {
        #if DEBUG
        index._checkInvariants()
        precondition(recordsByID.count == Int(index.nextID), "records and ids disagree")
        for (path, id) in index.idByPath { precondition(recordsByID[Int(id)]?.path == path, "record of \(path) is not at its id") }
        #endif
    }
}

/// The state a load merges chunks into, in order, as the cores finish them.
///
/// `@unchecked Sendable` is safe: `lock` guards `waiting`, `next` and `merging`; `state`
/// and `problems` are touched only by the one core that set `merging` (under the lock)
/// until it clears it (under the lock again), and the loading thread reads them only
/// after the `concurrentPerform` of ``StoreState/load(paths:from:)`` has returned,
/// which orders every write before the read.
private final class LoadTarget: @unchecked Sendable {
    var state: StoreState
    var problems: [SystemError] = []
    private let lock = NSLock()
    /// Chunks finished out of turn, by number.
    private var waiting: [Int: (StoreIndex.Chunk, [SystemError])] = [:]
    /// The number of the chunk to merge next.
    private var next = 0
    /// Whether a core is merging: the others hand their chunks over and go on parsing.
    private var merging = false

    init(_ state: StoreState) { self.state = state }

    /// Takes chunk `number`; the caller merges it, and every chunk after it that is
    /// waiting, unless another core is merging (it takes them before it stops: a chunk is
    /// put down and the merging core checks for the next one under the same lock).
    func finished(_ number: Int, _ chunk: (StoreIndex.Chunk, [SystemError])) {
        lock.lock()
        waiting[number] = chunk
        guard !merging else {
            lock.unlock()
            return
        }
        merging = true
        while let ready = waiting.removeValue(forKey: next) {
            next += 1
            lock.unlock()
            merge(ready)
            lock.lock()
        }
        merging = false
        lock.unlock()
    }

    /// Merges a parsed chunk; ids follow the records actually read.
    private func merge(_ parsed: (StoreIndex.Chunk, [SystemError])) {
        let (chunk, unreadable) = parsed
        let rebased = chunk.rebased(to: state.index.nextID)
        state.recordsByID.append(contentsOf: rebased.records)
        state.index.merge(rebased)
        problems += unreadable
    }
}
