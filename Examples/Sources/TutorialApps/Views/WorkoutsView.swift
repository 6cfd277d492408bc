#if canImport(SwiftUI)
import Folio
import SwiftUI

/// The workouts diary: the list, swipe to remove, and the three orders.
public struct WorkoutsView: View {
    let diary: WorkoutsDiary

    /// The view of `diary`.
    public init(diary: WorkoutsDiary) { self.diary = diary }

    /// The list.
    public var body: some View {
        List {
            ForEach(diary.workouts) { workout in
                VStack(alignment: .leading) {
                    Text(workout.title)
                    Text("\(workout.distance ?? 0, specifier: "%.1f") km · \(workout.complexity?.rawValue ?? "")").font(.caption)
                }
            }
            .onDelete { offsets in Task { await diary.remove(atOffsets: offsets) } }
        }
        .toolbar {
            Menu("Sort") {
                Button("By date") { Task { await diary.sortByDate() } }
                Button("By distance") { Task { await diary.sortByDistance() } }
                Button("By complexity") { Task { await diary.sortByComplexity() } }
            }
        }
    }
}
#endif
