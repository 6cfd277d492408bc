/// A declared flag: an option without a value (`--json`).
struct Flag: Sendable {
    /// As written on the command line.
    var name: String
    /// One line for the help's option list.
    var help: String

    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}
