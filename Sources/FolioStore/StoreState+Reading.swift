extension StoreState {
    /// The files whose bytes the reducer needs for `action`: the records it may edit.
    /// A reorder may rewrite any todo's `order`, so it names every todo. Pure.
    public func filesRead(by action: Action) -> [String] {
        switch action {
        case .disk:
            return []
        case .todos(let todos):
            switch todos {
            case .toggleDone(let path), .setDone(let path, _), .updateTodo(let path, _):
                return [path]
            case .moveTodos, .orderTodosByDate, .orderTodosByPriority:
                return self.todos.map(\.path)
            case .addTodo, .insertTodoAtTop, .removeTodo, .removeTodos, .removeCompleted:
                return []
            }
        case .workouts(let workouts):
            switch workouts {
            case .updateWorkout(let path, _):
                return [path]
            case .addWorkout, .removeWorkouts, .sortWorkoutsByDate, .sortWorkoutsByDistance, .sortWorkoutsByComplexity:
                return []
            }
        case .records(let records):
            switch records {
            case .updateRecipe(let path, _), .setField(let path, _, _), .updateFields(let path, _, _, _), .replaceContent(let path, _, _):
                return [path]
            case .addRecipe, .removeRecipe, .removeRecord, .addQuote, .updateSettings, .addRecord:
                return []
            }
        }
    }

    /// The bytes of the files `action` edits, as the reducer takes them: those the state
    /// holds unwritten, else read through its source (the disk, for a loaded folder:
    /// this is the effect, and the caller's, never the reducer's). A file whose bytes
    /// are no longer its record's is left out, so the edit is refused as changed on disk.
    public func readContents(for action: Action) -> [String: [UInt8]] {
        var contents: [String: [UInt8]] = [:]
        for path in filesRead(by: action) where pending[path] == nil {
            if let record = self[path], let bytes = self.contents(of: record) { contents[path] = bytes }
        }
        return contents
    }

    /// The bytes of `record` the reducer produced and the store has not yet written (the
    /// reducer checks them against the record's fingerprint, as it does bytes read).
    func heldBytes(of record: Record) -> [UInt8]? { pending[record.path] }
}
