/// An option's value that cannot be used: not what the option needs (`--priority x`),
/// or a required option left out. Said as `folio COMMAND: …`, with the exit status for
/// bad usage; a missing option is followed by the help, as it always was.
struct OptionValueError: Error, CustomStringConvertible {
    var description: String
    /// Whether the command's help follows the message.
    var showsHelp = false
}
