import Folio
import Foundation

/// The Redux workouts diary: workouts with a name, a distance, a date and a
/// complexity (low, medium, high); add, remove, sort by distance or complexity and
/// back to by date — each an action through `store.dispatch`, run by Folio's pure
/// reducer, the state then written to `workouts/`.
@MainActor
public final class WorkoutsDiary {
    /// The folder's store.
    public let store: Store

    /// The diary over `store`.
    public init(store: Store) { self.store = store }

    /// The workouts in the chosen order (the store keeps the list).
    public var workouts: [Record] { store.workouts }

    /// Adds a workout; refused (with every problem) without a name or with a negative distance.
    @discardableResult
    public func add(name: String, distance: Double, date: String, complexity: Complexity) async -> ActionResult {
        await store.dispatch(.addWorkout(Workout(name: name, distance: distance, date: date, complexity: complexity)))
    }

    /// Removes the workouts at these positions of the list.
    public func remove(atOffsets offsets: IndexSet) async { await store.dispatch(.removeWorkouts(atOffsets: offsets)) }

    /// Longest first.
    public func sortByDistance() async { await store.dispatch(.sortWorkoutsByDistance) }

    /// Hardest first.
    public func sortByComplexity() async { await store.dispatch(.sortWorkoutsByComplexity) }

    /// Newest first: the default order.
    public func sortByDate() async { await store.dispatch(.sortWorkoutsByDate) }
}
