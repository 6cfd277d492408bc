/// A file or folder below a ``RootedFolder``: the only way Folio names a file it reads,
/// writes, renames or removes inside a folder others can write. Every operation opens
/// the folders on the way from the root's descriptor, never following a symbolic link
/// (Linux `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, else one component at
/// a time with `O_NOFOLLOW | O_DIRECTORY`), then acts on the last name relative to its
/// folder's descriptor. Swap a folder for a link at any moment and the operation fails;
/// it never lands outside.
public struct RootedPath: Sendable, CustomStringConvertible {
    /// The folder it is below.
    public let folder: RootedFolder
    /// Where below it.
    public let relative: RelativePath

    /// `relative` below `folder`.
    public init(_ folder: RootedFolder, _ relative: RelativePath) {
        self.folder = folder
        self.relative = relative
    }

    /// The full path, for messages only (never opened as such).
    public var path: String { relative.isRoot ? folder.path : folder.path + "/" + relative.string }

    /// The full path, for messages.
    public var description: String { path }

    /// Its last component.
    public var name: String { relative.name }

    /// The folder holding it.
    public var parent: RootedPath { RootedPath(folder, relative.parent) }

    /// `name` inside it.
    public func appending(_ name: String) -> RootedPath { RootedPath(folder, relative.appending(name)) }

    /// A file beside it, named `name`.
    public func sibling(_ name: String) -> RootedPath { parent.appending(name) }
}
