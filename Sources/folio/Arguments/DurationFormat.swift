/// How an `Option<Duration>` reads its text: a number in `unit`, within `range` (in
/// that unit), whole or with a fraction. The unit is part of the declaration because
/// the same spelling means different units in different commands (`fold --quiet` is
/// seconds, `watch --quiet` milliseconds), and the help and errors must say which.
struct DurationFormat: Sendable {
    /// The unit a duration is written in.
    enum Unit: Sendable {
        case seconds, milliseconds

        /// The value's name in the usage line.
        var valueName: String { self == .seconds ? "SECONDS" : "MS" }
        /// The unit's name in sentences.
        var plural: String { self == .seconds ? "seconds" : "milliseconds" }
        /// Milliseconds in one of this unit.
        var milliseconds: Double { self == .seconds ? 1000 : 1 }
    }

    var unit: Unit
    /// The values allowed, in `unit`.
    var range: ClosedRange<Double>
    /// Whether a fraction of the unit may be written (`0.5` seconds).
    var fractions: Bool
    /// The upper bound in words ("an hour"), for the help and errors.
    var limitName: String
}
