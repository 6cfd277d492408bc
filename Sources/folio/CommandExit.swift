/// Ends a command early with an exit status, its reason already printed.
struct CommandExit: Error {
    /// The exit status.
    var status: Int32
}
