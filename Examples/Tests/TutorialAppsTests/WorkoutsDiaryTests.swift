import Folio
import Foundation
import Testing
import TutorialApps

@MainActor
@Suite struct WorkoutsDiaryTests {
    @Test func addRemoveAndTheThreeOrders() async throws {
        let (store, folder) = try await temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let diary = WorkoutsDiary(store: store)
        await diary.add(name: "Easy run", distance: 5, date: "2026-10-01", complexity: .low)
        await diary.add(name: "Long run", distance: 21.1, date: "2026-10-05", complexity: .medium)
        await diary.add(name: "Intervals", distance: 8, date: "2026-10-09", complexity: .high)
        #expect(diary.workouts.map(\.title) == ["Intervals", "Long run", "Easy run"])
        await diary.sortByDistance()
        #expect(diary.workouts.map(\.title) == ["Long run", "Intervals", "Easy run"])
        await diary.sortByComplexity()
        #expect(diary.workouts.map(\.title) == ["Intervals", "Long run", "Easy run"])
        await diary.sortByDate()
        await diary.remove(atOffsets: IndexSet(integer: 1))
        #expect(diary.workouts.map(\.title) == ["Intervals", "Easy run"])
        let refused = await diary.add(name: "", distance: -3, date: "2026-10-10", complexity: .low)
        #expect(refused.errors.count == 2 && diary.workouts.count == 2)
        #expect(text(folder, "workouts/intervals.md") == "---\nname: Intervals\nkind: workout\ndistance: 8.0\ndate: 2026-10-09\ncomplexity: high\n---\n")
    }

    /// The diary's logic is Folio's pure reducer: the same actions on the same state
    /// give the same state, with no disk.
    @Test func theReducerIsPure() {
        let files = ["workouts/a.md": "---\nname: A\ndistance: 3\ndate: 2026-10-01\n---\n", "workouts/b.md": "---\nname: B\ndistance: 9\ndate: 2026-10-02\n---\n"]
        var first = StoreState(files: files.mapValues { Array($0.utf8) }), second = first
        for action: Action in [.sortWorkoutsByDistance, .addWorkout(Workout(name: "C", distance: 1)), .removeWorkouts(atOffsets: IndexSet(integer: 0))] {
            let a = Reducer.reduce(&first, action), b = Reducer.reduce(&second, action)
            #expect(a.effects == b.effects && first == second)
        }
        #expect(first.workouts.map(\.title) == ["A", "C"])
    }
}
