import FolioFormat
import FolioGit

extension GitSyncEvent {
    /// The event as a line of text, names escaped.
    var sentence: String {
        switch self {
        case .committed(let commit, let paths):
            return "committed \(paths.count) file\(paths.count == 1 ? "" : "s") as \(commit.prefix(8)): " + list(paths)
        case .leftOut(let path, let reason):
            return "left out \(shown(path)): \(reason)"
        case .fastForwarded(let commit, let paths):
            return "brought in \(paths.count) file\(paths.count == 1 ? "" : "s") (fast-forward to \(commit.prefix(8))): " + list(paths)
        case .integrated(let commit, let rebased, let paths):
            return (rebased ? "rebased onto the remote's commits" : "merged the remote's commits") + " as \(commit.prefix(8))"
                + (paths.isEmpty ? "" : "; merged by Folio: " + list(paths))
        case .clash(let path, let copy):
            return "conflict kept \(shown(path)): the remote's version is in the file, this device's in \(shown(copy)); settle it with folio resolve"
        case .pushed(let upstream, let commits):
            return "pushed \(commits) commit\(commits == 1 ? "" : "s") to \(shown(upstream))"
        case .remoteMoved:
            return "the remote moved while pushing: fetched and brought in again"
        case .inStep(let upstream):
            return "in step with \(shown(upstream))"
        }
    }

    /// The event as one JSON object.
    var json: String {
        var object: YAMLMapping
        switch self {
        case .committed(let commit, let paths): object = ["event": .string("committed"), "commit": .string(commit), "paths": .sequence(paths.map(YAMLValue.string))]
        case .leftOut(let path, let reason): object = ["event": .string("left out"), "path": .string(path), "reason": .string(reason)]
        case .fastForwarded(let commit, let paths): object = ["event": .string("fast-forwarded"), "commit": .string(commit), "paths": .sequence(paths.map(YAMLValue.string))]
        case .integrated(let commit, let rebased, let paths):
            object = ["event": .string(rebased ? "rebased" : "merged"), "commit": .string(commit), "paths": .sequence(paths.map(YAMLValue.string))]
        case .clash(let path, let copy): object = ["event": .string("clash"), "path": .string(path), "copy": .string(copy)]
        case .pushed(let upstream, let commits): object = ["event": .string("pushed"), "upstream": .string(upstream), "commits": .int(commits)]
        case .remoteMoved: object = ["event": .string("remote moved")]
        case .inStep(let upstream): object = ["event": .string("in step"), "upstream": .string(upstream)]
        }
        return YAMLValue.mapping(object).json(indent: nil)
    }

    private func list(_ paths: [String]) -> String {
        paths.prefix(5).map(shown).joined(separator: ", ") + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
    }
}
