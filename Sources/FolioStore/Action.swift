import Foundation
import FolioFormat
import FolioModel

/// Everything that changes the store arrives as an action: edits from disk (the
/// watcher, the sync engine), and the tutorials' operations from apps and the CLI.
public enum Action: Sendable {
    /// What the disk holds now (the watcher, the sync, a re-read).
    case disk(DiskChange)
    /// The todo list's operations.
    case todos(TodoAction)
    /// The workouts diary's operations.
    case workouts(WorkoutAction)
    /// Recipes, quotes, any record's field or file, and the settings.
    case records(RecordAction)
}

extension Action {
    /// The files a disk action is about (none for the operations apps dispatch).
    var paths: [String] {
        switch self {
        case .disk(.fileChanged(let path, _)), .disk(.fileRemoved(let path)): [path]
        case .disk(.fileMoved(let from, let to, _)): [from, to]
        case .disk(.settingsFileChanged): [Settings.fileName]
        case .todos, .workouts, .records: []
        }
    }
}
