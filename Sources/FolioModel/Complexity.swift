import FolioFormat

/// How hard a workout was.
public enum Complexity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Easy.
    case low
    /// Moderate.
    case medium
    /// Hard.
    case high

    /// Low sorts before medium before high.
    public static func < (a: Complexity, b: Complexity) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
