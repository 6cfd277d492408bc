/// A declared flag: an option without a value (`--json`). Hashable: the parsed
/// arguments hold the flags given as their declarations.
struct Flag: Sendable, Hashable {
    /// As written on the command line.
    var name: String
    /// One line for the help's option list.
    var help: String

    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}
