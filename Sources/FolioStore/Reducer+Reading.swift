extension Reducer {
    /// Reads the files `action` edits through the state's source (``StoreState/readContents(for:)``:
    /// the disk, for a loaded folder), then runs the pure ``reduce(_:_:contents:)``: the
    /// edge a caller without a store of its own (a test, a state in memory) uses.
    public static func reduce(_ state: inout StoreState, _ action: Action) -> Outcome {
        reduce(&state, action, contents: state.readContents(for: action))
    }
}
