import FolioFolder
import FolioFormat
import FolioModel
import FolioSystem

/// How the workout list is ordered.
public enum WorkoutOrder: String, Sendable, Hashable {
    /// Newest first.
    case date
    /// Longest first, as the tutorial's "sort by distance".
    case distance
    /// Hardest first, as the tutorial's "sort by complexity".
    case complexity
}
