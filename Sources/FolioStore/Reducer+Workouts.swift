import Foundation
import FolioFormat
import FolioModel

extension Reducer {
    /// The workouts diary: adds, updates, removals and the list's order.
    static func reduceWorkouts(_ action: WorkoutAction, _ state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome) {
        switch action {
        case .addWorkout(let workout):
            guard accepts(workout.problems, adding: "workout", &outcome) else { break }
            create(workout.name, kind: .workout, in: &state, &outcome) { try workout.newDocument() }
        case .updateWorkout(let path, let workout):
            guard isRecord(path, of: .workout, in: state, &outcome), accepts(workout.problems, saving: "workout", at: path, &outcome) else { break }
            edit(path, in: &state, contents, &outcome) { try workout.updating($0) }
        case .removeWorkouts(let offsets):
            let list = state.workouts
            for offset in offsets where list.indices.contains(offset) { delete(list[offset].path, in: &state, &outcome) }
        case .sortWorkoutsByDate:
            order(.date, in: &state, &outcome)
        case .sortWorkoutsByDistance:
            order(.distance, in: &state, &outcome)
        case .sortWorkoutsByComplexity:
            order(.complexity, in: &state, &outcome)
        }
    }
}
