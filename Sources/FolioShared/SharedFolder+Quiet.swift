import FolioSystem
import FolioVersions

extension SharedFolder {
    /// How long until `paths` (relative) will have been left alone for `period` (their
    /// last change by either time): the first of them, or with `all` the last; at most
    /// `period`, zero for one left alone that long already or gone (the next look sees
    /// it). A wait for ``isQuiet(_:_:for:)`` to hold: the try after it comes when it can
    /// succeed, not in steps.
    package func untilQuiet(_ paths: some Collection<String>, for period: Duration, all: Bool) -> Duration {
        let now = options.clock.wallNanoseconds
        let wanted = period.nanoseconds
        let waits = paths.map { path -> Int64 in
            // A probe: a path gone or not to be looked at now is looked at again at once.
            guard let stamp = try? FileStamp.of(rootFolder[path]) else { return 0 }
            return min(wanted, max(0, wanted - (now - max(stamp.modified, stamp.changed))))
        }
        return .nanoseconds((all ? waits.max() : waits.min()) ?? wanted)
    }
}
