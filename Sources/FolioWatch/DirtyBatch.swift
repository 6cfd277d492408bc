import FolioFolder
import FolioSystem
/// The paths hints have marked since the last batch was read, and when the batch is
/// due: once no hint has come for the quiet period (so that a save made of several
/// steps — truncate then write, write then rename — is read once, finished), but no
/// later than the longest delay after the first hint, so that a file written to
/// without pause is still followed. Pure: the caller passes the time.
///
/// A record file written through a name that is then removed, moved away or replaced
/// before the watcher reads it may have other names (hard links) it never learned of,
/// all of them changed with no event of their own: the batch then reads everything.
package struct DirtyBatch: Sendable {
    /// The marked paths (relative; `""` is the root).
    package private(set) var paths: Set<String> = []
    /// Whether everything must be read again.
    package private(set) var needsRescan = false
    /// Why, when it must.
    package private(set) var rescanReason: String?
    package private(set) var firstHint: ContinuousClock.Instant?
    package private(set) var lastHint: ContinuousClock.Instant?
    /// Files open for writing, and since when: held back until closed, but no longer
    /// than ``longestWrite`` (a writer that never closes — a log — is still followed).
    package private(set) var writing: [String: ContinuousClock.Instant] = [:]
    /// How long a file open for writing is waited on.
    package let longestWrite: Duration
    /// Record files written through (or made) in this batch and the one taken before it:
    /// the one before may have been read after such a name went, too late to see its
    /// other names (hard links).
    package private(set) var written: Set<String> = []
    /// ``written``, the batch before's too, with every folder above them: whether a name
    /// that went had one below it is one lookup, however many were written (a checkout).
    private var writtenOrAbove: Set<String> = []

    /// An empty batch that waits at most `longestWrite` on a file open for writing.
    package init(longestWrite: Duration = .seconds(2)) { self.longestWrite = longestWrite }

    /// Whether nothing is marked.
    package var isEmpty: Bool { paths.isEmpty && !needsRescan }

    /// Marks what `hints` name, at `now`. Warnings are not the batch's business.
    package mutating func note(_ hints: [WatchHint], at now: ContinuousClock.Instant) {
        var marked = false
        for hint in hints {
            switch hint {
            case .changed(let path):
                paths.insert(path)
                // The name written through went (or a folder above it did): its file's other names are unknown.
                if !needsRescan, writtenOrAbove.contains(path) {
                    needsRescan = true
                    rescanReason = rescanReason ?? "a file written through a name then removed or replaced: reading its other names (hard links)"
                }
                // Removed, moved or made anew at that name: no writer holds it open there now.
                writing[path] = nil
                marked = true
            case .rescan(let reason):
                needsRescan = true
                rescanReason = rescanReason ?? reason
                marked = true
            case .warning:
                continue
            case .writing(let path):
                paths.insert(path)
                noteWritten(path)
                writing[path] = writing[path] ?? now
                marked = true
            case .closed(let path):
                paths.insert(path)
                noteWritten(path)
                writing[path] = nil
                marked = true
            }
        }
        guard marked else { return }
        firstHint = firstHint ?? now
        lastHint = now
    }

    /// When the batch should be read, or nil when nothing is marked. A reader that reads
    /// only the marked paths waits on files open for writing only when they are all that
    /// is marked (the others can be read now, the open ones later). One that reads
    /// everything at once (a pair sync, `wholeTree`) would read them half-written with the
    /// rest, so it waits on every one: until it is closed, or has waited its longest.
    package func due(quiet: Duration, longest: Duration, wholeTree: Bool = false) -> ContinuousClock.Instant? {
        guard !isEmpty, let firstHint, let lastHint else { return nil }
        let regular = min(lastHint + quiet, firstHint + longest)
        if wholeTree, let lastOpened = writing.values.max() { return max(regular, lastOpened + longestWrite) }
        // Only files still being written: due when the first of them has waited its longest.
        guard !needsRescan, !paths.isEmpty, paths.allSatisfy({ writing[$0] != nil }) else { return regular }
        return max(regular, writing.values.min()! + longestWrite)
    }

    /// The marked paths (just `""` for a rescan, since the root holds everything), and
    /// an empty batch left behind.
    /// Files still open for writing (for less than ``longestWrite``) stay behind, marked.
    /// With `holdingWrites: false` (a caller that wants every change made so far, now)
    /// they are taken too.
    package mutating func take(at now: ContinuousClock.Instant = .now, holdingWrites: Bool = true) -> Set<String> {
        let held = needsRescan || !holdingWrites ? [:] : writing.filter { $0.value + longestWrite > now }
        let taken = needsRescan ? [""] : paths.subtracting(held.keys)
        let before = needsRescan ? [] : written
        self = DirtyBatch(longestWrite: longestWrite)
        for path in before { noteWritten(path) }
        written = []
        if !held.isEmpty {
            paths = Set(held.keys)
            writing = held
            (firstHint, lastHint) = (now, now)
        }
        return taken
    }

    /// Notes a record file written through `path`, with the folders above it (`""` too).
    private mutating func noteWritten(_ path: String) {
        guard FolderRules.isRecordPath(path) else { return }
        written.insert(path)
        var folder = RelativePath(path)
        while !folder.isRoot, writtenOrAbove.insert(folder.string).inserted { folder = folder.parent }
        writtenOrAbove.insert("")
    }
}
