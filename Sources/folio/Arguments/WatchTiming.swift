import FolioWatch

/// `folio watch`'s timing options, declared together: `--poll DURATION` (stat the
/// folder instead of being told of changes) and `--quiet DURATION` (the quiet period).
enum WatchTiming {
    static let poll = Option<Duration>(
        "--poll", range: Double.leastNonzeroMagnitude...86_400, upTo: "a day",
        help: "stat the folder this often instead of using inotify or FSEvents (network file systems)")
    static let quiet = Option<Duration>(
        "--quiet", range: 0...60, upTo: "a minute",
        help: "how long a file must be left alone before it is read", default: "50ms")

    /// The declarations, in the order of the usage line.
    static let options: [OptionInfo] = [poll.info, quiet.info]

    /// `options` with what `arguments` set: `--poll` first, then `--quiet`, as they
    /// were always checked.
    static func apply(_ arguments: ParsedArguments, to options: inout WatchOptions) throws(OptionValueError) {
        if let interval = try arguments.value(of: poll) { options.backend = .polling(interval: interval) }
        if let period = try arguments.value(of: quiet) { options.quietPeriod = period }
    }
}
