import FolioFolder
import FolioShared
import FolioVersions
/// One value for each of the two replicas, reached by ``Replica``: `scans[replica]`,
/// `scans[replica.other]`, rather than a pair of names and a ternary to choose.
public struct PerReplica<Value> {
    /// A's value.
    public var a: Value
    /// B's value.
    public var b: Value

    /// A's value and B's.
    public init(a: Value, b: Value) { (self.a, self.b) = (a, b) }

    /// Each replica's value, made for it.
    public init<Failure: Error>(_ make: (Replica) throws(Failure) -> Value) throws(Failure) {
        self.init(a: try make(.a), b: try make(.b))
    }

    /// The value of `replica`.
    public subscript(replica: Replica) -> Value {
        get { replica == .a ? a : b }
        set { if replica == .a { a = newValue } else { b = newValue } }
    }

    /// Each value changed by `transform`.
    public func map<Other, Failure: Error>(_ transform: (Value) throws(Failure) -> Other) throws(Failure) -> PerReplica<Other> {
        PerReplica<Other>(a: try transform(a), b: try transform(b))
    }
}

extension PerReplica: Sendable where Value: Sendable {}
extension PerReplica: Equatable where Value: Equatable {}
extension PerReplica: Hashable where Value: Hashable {}
