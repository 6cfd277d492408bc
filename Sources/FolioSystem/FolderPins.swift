/// The folders a run of file operations works in, each opened once: a path handed to
/// ``pinned(_:)`` comes back as a name in its own open folder, so that a copy's read,
/// temporary file, stamps and rename act on one descriptor instead of resolving the
/// folder beneath the root again for each step (five resolutions a file, measured as
/// a quarter of a first sync's time).
///
/// Each folder is opened as every ``RootedPath`` is (beneath its root, never through a
/// link) and stays open only while the run keeps working in it: the last folder of each
/// root is kept, so a caller that takes its files folder by folder holds one descriptor
/// per root. A folder swapped for a link after it was pinned is not followed (the
/// descriptor is the folder that was there); one moved elsewhere by its owner takes the
/// run's writes with it, as it would take an editor's save to an open file.
package struct FolderPins {
    private var open: [(root: RootedFolder, relative: RelativePath, folder: RootedFolder)] = []

    /// No folder open yet.
    package init() {}

    /// `path` as a name in its folder, opened now or reused from the last call for the
    /// same root. A path right below its root is returned as it is: its folder is the
    /// root's own descriptor.
    package mutating func pinned(_ path: RootedPath) throws(SystemError) -> RootedPath {
        let parent = path.relative.parent
        guard !parent.isRoot else { return path }
        let name = RelativePath(path.name)
        if let kept = open.first(where: { $0.root === path.folder && $0.relative == parent }) {
            return RootedPath(kept.folder, name)
        }
        let folder = try RootedFolder(parent, below: path.folder)
        open.removeAll { $0.root === path.folder }
        open.append((path.folder, parent, folder))
        return RootedPath(folder, name)
    }
}
