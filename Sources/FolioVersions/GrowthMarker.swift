import FolioSystem

/// When a log that only grows is worth compacting: once it has grown by half (and
/// 64 KiB) since it was last compacted. The size after the last compaction is kept in a
/// marker file of the state folder, read once per process (the state's lock means no one
/// else compacts meanwhile), so that most runs do not read the log for this.
package struct GrowthMarker {
    /// The marker file.
    package let path: RootedPath
    private var compactedSize: Int64?

    /// The marker kept at `path`.
    package init(path: RootedPath) { self.path = path }

    /// Whether a compaction was ever noted (a marker file is there).
    // A probe: a marker that cannot be looked at counts as none (compaction then comes sooner, never later).
    package var exists: Bool { (try? FileStamp.of(path)) != nil }

    /// Whether a log of `size` bytes has grown enough to be compacted.
    package mutating func isDue(size: Int64) -> Bool {
        if compactedSize == nil {
            // Only when to compact: an unreadable marker means "never compacted", so compaction comes sooner, never later.
            compactedSize = ((try? AtomicFile.contentsIfPresent(path)) ?? nil).flatMap { LineFields.integer($0.prefix { $0 != 10 }) } ?? 0
        }
        let last = compactedSize ?? 0
        return size > last + last / 2 + (64 << 10)
    }

    /// Notes that the log was compacted to `size` bytes.
    package mutating func compacted(to size: Int64) throws(SystemError) {
        _ = try AtomicFile.write(Array("\(size)\n".utf8), to: path, mode: 0o600, replacingOnly: nil)
        compactedSize = size
    }
}
