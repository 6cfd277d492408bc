import FolioFolder
import FolioSystem
import FolioVersions

/// The part of both replicas a hinted sync looks at: the paths a watcher named, each
/// in its folder. A path inside a folder the archive does not know is looked at from
/// the topmost such folder down (a folder made and filled between two syncs is new,
/// every file in it), and a path that is a folder on disk is listed whole.
package struct ScanScope: Sendable, Equatable {
    /// Each folder (relative, `""` the root) with the names in it to look at.
    package private(set) var names: [String: Set<String>] = [:]
    /// The paths looked at (relative, without a trailing `/`): a file, or a folder and
    /// everything in it.
    package private(set) var paths: Set<String> = []

    /// The scope for the relative paths `hints` against `archive`, or nil when only a
    /// whole scan will do: the root itself was named, or a `.folioignore` (rules that
    /// change may make any path synced or not).
    package init?(_ hints: some Sequence<String>, archive: SyncArchive, ignore: FolioIgnore) {
        for hint in hints {
            var path = RelativePath(hint.hasSuffix("/") ? String(hint.dropLast()) : hint)
            if path.isRoot || path.string == FolioIgnore.fileName { return nil }
            let parent = path.parent
            // Inside a folder no sync enters (`.git`, a rule's folder), nothing is synced.
            if parent.string.split(separator: "/").contains(where: { FolderRules.isIgnoredDirectory(String($0)) }) { continue }
            if !parent.isRoot, SyncEngine.isIgnored(SyncPath(folder: parent.string), by: ignore) { continue }
            while !path.parent.isRoot, archive.entries[SyncPath(folder: path.parent.string)] == nil { path = path.parent }
            guard paths.insert(path.string).inserted else { continue }
            names[path.parent.string, default: []].insert(path.name)
        }
        // A path below another in scope is listed with it: looked at by itself as well,
        // a new file there would be read twice.
        for path in paths {
            var above = RelativePath(path).parent
            while !above.isRoot, !paths.contains(above.string) { above = above.parent }
            guard !above.isRoot else { continue }
            let inner = RelativePath(path)
            names[inner.parent.string]?.remove(inner.name)
            if names[inner.parent.string]?.isEmpty == true { names[inner.parent.string] = nil }
        }
    }

    /// The archived paths the scope covers: each path looked at, as a file or as a
    /// folder with everything the archive has below it.
    package func archivedPaths(in archive: SyncArchive) -> Set<SyncPath> {
        var covered: Set<SyncPath> = []
        var folders: [String] = []
        for path in paths {
            let file = SyncPath(file: path), folder = SyncPath(folder: path)
            if archive.entries[file] != nil { covered.insert(file) }
            if archive.entries[folder] != nil { folders.append(folder.key) }
        }
        // A folder's contents are wherever the archive's keys start with it: one pass, and
        // only when an archived folder is in scope (made, moved or removed as a whole).
        if !folders.isEmpty {
            for key in archive.entries.keys where folders.contains(where: { key.key.hasPrefix($0) }) { covered.insert(key) }
        }
        return covered
    }
}
