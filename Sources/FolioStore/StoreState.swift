import FolioFormat
import FolioModel
import FolioSystem

/// Everything the store knows: every file by relative path (invalid ones too), the
/// indexes, the settings and the list orders. A value: the reducer changes it, and
/// nothing else does.
public struct StoreState: Sendable {
    /// Every record by path.
    public private(set) var records: [String: Record] = [:]
    /// The indexes over ``records``.
    var index = StoreIndex()
    /// The folder's `folio.yaml` settings.
    public internal(set) var settings = Settings()
    /// How the workout list is ordered.
    public internal(set) var workoutOrder = WorkoutOrder.date
    /// The bytes of `folio.yaml` as last read or written, nil when there is none.
    public internal(set) var settingsBytes: [UInt8]?

    /// An empty state.
    public init() {}

    /// A state holding `files` (path → bytes): parsed on every core, then indexed in one pass.
    public init(files: [String: [UInt8]]) {
        let paths = files.keys.sorted()
        let prepared = ConcurrentSlots<(Record, StoreIndex.Entry)>.map(paths.count) { i in
            StoreState.prepare(path: paths[i], bytes: files[paths[i]]!)
        }
        for (record, entry) in prepared {
            records[record.path] = record
            index.insert(record, entry, bulk: true)
        }
        index.finishBulk()
    }

    /// A file's record and index entry, parsing it once.
    static func prepare(path: String, bytes: [UInt8]) -> (Record, StoreIndex.Entry) {
        do {
            let document = try Document(bytes: bytes, path: path)
            let record = Record(path: path, document: document)
            return (record, StoreIndex.Entry(record, document: document))
        } catch {
            return (Record(path: path, bytes: bytes), StoreIndex.Entry())
        }
    }

    /// Adds or replaces a record.
    mutating func put(_ record: Record) {
        records[record.path] = record
        index.insert(record, StoreIndex.Entry(record, document: record.document), bulk: false)
    }

    /// Removes a record.
    mutating func remove(_ path: String) {
        records[path] = nil
        index.remove(path)
    }

    /// Every record of `kind`, in path order.
    public func records(of kind: Kind) -> [Record] {
        (index.byKind[kind] ?? []).filter(index.isLive).sorted { index.rank[Int($0)] < index.rank[Int($1)] }
            .compactMap(record(id:))
    }

    /// The records that do not parse, in path order.
    public var invalidRecords: [Record] { records.values.filter { !$0.isValid }.sorted { $0.path < $1.path } }

    /// The todos in list order: by `order`, then by path.
    public var todos: [Record] {
        records(of: .todo).filter(\.isValid).enumerated()
            .sorted { ($0.element.order ?? Int.max, $0.offset) < ($1.element.order ?? Int.max, $1.offset) }.map(\.element)
    }

    /// The workouts in ``workoutOrder``.
    public var workouts: [Record] {
        let list = records(of: .workout).filter(\.isValid)
        switch workoutOrder {
        case .date: return list.sorted { ($0.date.map { $0.daysSinceEpoch } ?? Int.min) > ($1.date.map { $0.daysSinceEpoch } ?? Int.min) }
        case .distance: return list.sorted { ($0.distance ?? -1) > ($1.distance ?? -1) }
        case .complexity: return list.sorted { ($0.complexity.map { Complexity.allCases.firstIndex(of: $0)! } ?? -1) > ($1.complexity.map { Complexity.allCases.firstIndex(of: $0)! } ?? -1) }
        }
    }

    /// Checks the indexes against the records; does nothing in release builds.
    public func _checkInvariants() {
        #if DEBUG
        index._checkInvariants()
        precondition(Set(records.keys) == Set(index.idByPath.keys), "records and index disagree")
        #endif
    }
}

/// How the workout list is ordered.
public enum WorkoutOrder: String, Sendable, Hashable {
    /// Newest first.
    case date
    /// Longest first, as the tutorial's "sort by distance".
    case distance
    /// Hardest first, as the tutorial's "sort by complexity".
    case complexity
}
