/// How an `Option<Int>` reads its text: a whole number, within `range` when there is
/// one, described as `said` ("a whole number") in the help and when refused.
struct IntFormat: Sendable {
    var range: ClosedRange<Int>?
    var said: String
}
