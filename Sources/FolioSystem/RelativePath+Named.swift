/// A path a person named on the command line, found below a folder.
extension RelativePath {
    /// Why a path a person named is not a file below a folder.
    package enum NamingError: Error, Equatable {
        /// The folder is not there.
        case folderMissing
        /// Nothing is at the path.
        case noSuchFile
        /// The path leads outside the folder, or is the folder itself.
        case outside
    }

    /// Where `path`, as a person named it (relative to `folder`, or absolute; links in it
    /// resolved: they are the person's word, as `cp` takes them), lies below `folder`:
    /// the folder's real path and the path below it, compared component by component.
    package static func named(_ path: String, in folder: String) throws(NamingError) -> (root: String, path: RelativePath) {
        let root: String
        do { root = try Syscall.realPath(folder) } catch { throw .folderMissing }
        let resolved: String
        do { resolved = try Syscall.realPath(path.hasPrefix("/") ? path : root + "/" + path) } catch { throw .noSuchFile }
        let rootParts = root.split(separator: "/"), parts = resolved.split(separator: "/")
        guard parts.count > rootParts.count, parts.starts(with: rootParts) else { throw .outside }
        return (root, RelativePath(parts.dropFirst(rootParts.count).joined(separator: "/")))
    }
}
