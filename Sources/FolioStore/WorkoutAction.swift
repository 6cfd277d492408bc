import Foundation
import FolioModel

/// The workouts diary's operations: adds, updates, removals and the list's order.
public enum WorkoutAction: Sendable {
    /// Adds a workout as a new file in `workouts/`.
    case addWorkout(Workout)
    /// Writes a workout's changed fields into its file.
    case updateWorkout(path: String, Workout)
    /// Deletes the workouts at these positions of the workout list.
    case removeWorkouts(atOffsets: IndexSet)
    /// Orders the workout list by date, newest first: the default order, and the way back to it.
    case sortWorkoutsByDate
    /// Orders the workout list by distance.
    case sortWorkoutsByDistance
    /// Orders the workout list by complexity.
    case sortWorkoutsByComplexity
}
