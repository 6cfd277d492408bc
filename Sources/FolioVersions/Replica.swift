/// One of the two replicas.
public enum Replica: String, Sendable, Hashable, CaseIterable {
    case a = "A", b = "B"

    /// The other replica.
    public var other: Replica { self == .a ? .b : .a }
}

extension Replica {
    /// 0 for A, 1 for B: where a replica's value sits in a pair of results made by index.
    package var position: Int { self == .a ? 0 : 1 }
}
