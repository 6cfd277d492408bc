/// One of the two replicas.
public enum Replica: String, Sendable, Hashable, CaseIterable {
    case a = "A", b = "B"

    /// The other replica.
    public var other: Replica { self == .a ? .b : .a }
}

/// What one path needs, decided from its version (content hash and executable bit) in
/// the archive and in each replica (nil: absent). Pure: the decisions of DESIGN's "Syncing two replicas".
public enum SyncStep: Sendable, Hashable {
    /// Both hold the same content: record it (when the archive does not already).
    case agree(String)
    /// Gone from both: forget it.
    case forget(String)
    /// Changed (or created) on one side only: copy it to the other.
    case copy(String, from: Replica)
    /// Deleted on one side, unchanged on the other: delete it there too.
    case delete(String, in: Replica)
    /// Deleted on one side and changed on the other: the edit wins, and is copied back.
    case restore(String, from: Replica)
    /// Changed differently on both sides (or created on both): merge.
    case merge(String)
}

public enum SyncPlan {
    /// The steps for every path any of the three know, in path order. A version is
    /// what makes two files the same for a sync: the content hash and the executable bit.
    public static func steps<Version: Hashable>(
        archive: [String: Version], a: [String: Version], b: [String: Version]
    ) -> [SyncStep] {
        var paths = Set(archive.keys)
        paths.formUnion(a.keys)
        paths.formUnion(b.keys)
        return paths.sorted().compactMap { path in
            step(path, base: archive[path], a: a[path], b: b[path])
        }
    }

    /// The step for one path, or nil when nothing is to be done.
    static func step<Version: Hashable>(_ path: String, base: Version?, a: Version?, b: Version?) -> SyncStep? {
        if a == b {
            if a == nil { return base == nil ? nil : .forget(path) }
            return base == a ? nil : .agree(path)
        }
        if a == base { return b == nil ? .delete(path, in: .a) : .copy(path, from: .b) }
        if b == base { return a == nil ? .delete(path, in: .b) : .copy(path, from: .a) }
        // Changed on both sides, differently.
        if a == nil { return .restore(path, from: .b) }
        if b == nil { return .restore(path, from: .a) }
        return .merge(path)
    }
}
