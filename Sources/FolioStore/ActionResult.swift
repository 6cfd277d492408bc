/// What an action did, once the disk is done: what changed — a new record's path in
/// `changes.added`, a list put in a new order in `changes.reordered`, the settings keys
/// that changed — and what was refused, as errors a caller can switch on by `kind`.
public struct ActionResult: Sendable, Hashable {
    /// What changed in the state.
    public var changes: ChangeSet
    /// What was refused: by the reducer (an invalid record, a record of another kind)
    /// or by the disk (the file changed meanwhile, a full disk).
    public var errors: [StoreError]

    /// Whether nothing was refused.
    public var succeeded: Bool { errors.isEmpty }

    /// The path of the record the action created (`addTodo`, `addRecipe`…), if it created one.
    public var createdPath: String? { changes.added.first }
}

extension ActionResult {
    /// Nothing done, and why: what an app's own method returns when it refuses before
    /// dispatching (a record that is not there), in the shape of a dispatch's result.
    public init(refusing errors: [StoreError]) {
        self.init(changes: ChangeSet(), errors: errors)
    }
}
