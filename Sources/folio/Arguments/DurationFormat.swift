/// How an `Option<Duration>` reads its text: a number in `unit`, within `range` (in
/// that unit), whole or with a fraction. The unit is part of the declaration because
/// the same spelling means different units in different commands (`fold --quiet` is
/// seconds, `watch --quiet` milliseconds), and the help and errors must say which.
struct DurationFormat: Sendable {
    /// The unit a duration is written in.
    enum Unit: Sendable {
        /// A number of seconds, or of milliseconds.
        case seconds, milliseconds
        /// A number with its unit written after it (`500ms`, `2s`, `5m`, `1h`; a bare
        /// number is seconds): the range is in seconds.
        case spelled

        /// The value's name in the usage line.
        var valueName: String {
            switch self {
            case .seconds: "SECONDS"
            case .milliseconds: "MS"
            case .spelled: "DURATION"
            }
        }
        /// The unit's name in sentences.
        var plural: String { self == .milliseconds ? "milliseconds" : "seconds" }
        /// Milliseconds in one of this unit (seconds for a spelled one).
        var milliseconds: Double { self == .milliseconds ? 1 : 1000 }
    }

    var unit: Unit
    /// The values allowed, in `unit`.
    var range: ClosedRange<Double>
    /// Whether a fraction of the unit may be written (`0.5` seconds).
    var fractions: Bool
    /// The upper bound in words ("an hour"), for the help and errors.
    var limitName: String
}
