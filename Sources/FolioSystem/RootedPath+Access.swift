/// The operations on a path below a root: each opens the folder holding it from the
/// root's descriptor (never through a link) and acts on the last name there.
extension RootedPath {
    /// Runs `body` with the open folder holding this path and its last name.
    package func withParent<T>(_ body: (_ directory: Int32, _ name: String) throws(SystemError) -> T) throws(SystemError) -> T {
        var parts = try relative.components(displaying: path)
        guard let name = parts.popLast() else {
            // The root itself has no folder below the root holding it.
            throw SystemError(operation: .open, path: path, code: Syscall.leadsOutside)
        }
        // A name right below the folder: its pinned descriptor is the folder (no open, no close).
        if parts.isEmpty { return try body(folder.descriptor, String(name)) }
        let directory = try Syscall.openDirectory(beneath: folder.descriptor, parts, rootPath: folder.path)
        defer { Syscall.close(directory) }
        return try body(directory, String(name))
    }

    /// Opens this path as a folder; the caller closes it.
    package func openDirectory() throws(SystemError) -> Int32 {
        try Syscall.openDirectory(beneath: folder.descriptor, relative.components(displaying: path), rootPath: folder.path)
    }

    /// Opens the regular file here for `purpose`; the caller closes it. A link, a folder,
    /// a FIFO or a device here is refused.
    package func open(for purpose: Syscall.OpenPurpose, mode: UInt32 = 0o666) throws(SystemError) -> Int32 {
        // The path spelled only for an error: every copy opens a file here.
        try withParent { (directory, name) throws(SystemError) in
            try Syscall.openRegularFile(name, in: directory, flags: purpose.flags, mode: mode, displayPath: path)
        }
    }

    /// What `lstat` says of it (a link is a link, never what it points to).
    package func linkStatus() throws(SystemError) -> FileStatus {
        if relative.isRoot { return try Syscall.status(of: folder.descriptor, path: path) }
        return try withParent { (directory, name) throws(SystemError) in
            try Syscall.linkStatus(name, in: directory, displayPath: path)
        }
    }

    /// Renames it to `target` (below the same root), replacing what is there.
    package func rename(to target: RootedPath) throws(SystemError) {
        try withParents(target) { (from, fromName, to, toName) throws(SystemError) in
            try Syscall.rename(fromName, in: from, to: toName, in: to, displayPath: target.path)
        }
    }

    /// Renames it to `target`, failing with `EEXIST` rather than replace a file there.
    package func renameWithoutReplacing(to target: RootedPath) throws(SystemError) {
        try withParents(target) { (from, fromName, to, toName) throws(SystemError) in
            try Syscall.renameWithoutReplacing(fromName, in: from, to: toName, in: to, displayPath: target.path)
        }
    }

    /// Trades places with `target` in one step.
    package func exchange(with target: RootedPath) throws(SystemError) {
        try withParents(target) { (from, fromName, to, toName) throws(SystemError) in
            try Syscall.exchange(fromName, in: from, with: toName, in: to, displayPath: target.path)
        }
    }

    /// Removes the file (or link) here.
    package func unlink() throws(SystemError) {
        let display = path
        try withParent { (directory, name) throws(SystemError) in try Syscall.unlink(name, in: directory, displayPath: display) }
    }

    /// Removes the empty folder here.
    package func removeDirectory() throws(SystemError) {
        let display = path
        try withParent { (directory, name) throws(SystemError) in
            try Syscall.unlink(name, in: directory, folder: true, displayPath: display)
        }
    }

    /// Creates the folder here and the missing ones above it (below the root), each
    /// with `mode`; a link or a file in the way is an error.
    package func makeDirectories(mode: UInt32 = 0o777) throws(SystemError) {
        let parts = try relative.components(displaying: path)
        var current = try Syscall.openDirectory(beneath: folder.descriptor, [], rootPath: folder.path)
        defer { Syscall.close(current) }
        var walked = folder.path
        for part in parts {
            let above = walked
            walked += "/" + part
            try Syscall.makeDirectory(String(part), in: current, mode: mode, displayPath: walked)
            let next = try Syscall.openDirectory(beneath: current, [part], rootPath: above)
            Syscall.close(current)
            current = next
        }
    }

    /// Flushes the folder here to the disk, so that a rename or removal in it lasts.
    package func syncDirectory() throws(SystemError) {
        let fd = try openDirectory()
        defer { Syscall.close(fd) }
        try Syscall.sync(fd, path: path)
    }

    /// A stream over the folder here; the caller closes it (``Syscall/closeDirectory(_:)``).
    package func openDirectoryStream() throws(SystemError) -> DirectoryStream {
        try Syscall.openDirectoryStream(openDirectory(), path: path)
    }

    /// The names in the folder here, each with its type; names that are not UTF-8 come
    /// escaped, as `.invalidName`.
    package func entries() throws(SystemError) -> [(name: String, type: EntryType)] {
        let dir = try openDirectoryStream()
        defer { Syscall.closeDirectory(dir) }
        var entries: [(name: String, type: EntryType)] = []
        while let entry = try Syscall.nextEntry(dir, path: path) { entries.append(entry) }
        return entries
    }

    /// The names in the folder here, sorted; none when it cannot be listed (missing, not
    /// a folder, refused). For Folio's own folders (its trash, a history's logs and
    /// versions), which it lists again at its next pass: a caller that must tell an
    /// empty folder from an unreadable one calls ``entries()``.
    package func namesIfListable() -> [String] {
        ((try? entries()) ?? []).map(\.name).sorted()
    }

    /// Runs `body` with the folders holding this path and `target`, opened once when they
    /// are the same folder.
    private func withParents(
        _ target: RootedPath, _ body: (Int32, String, Int32, String) throws(SystemError) -> Void
    ) throws(SystemError) {
        try withParent { (from, fromName) throws(SystemError) in
            if target.folder === folder && target.relative.parent == relative.parent {
                _ = try target.relative.components(displaying: target.path)
                return try body(from, fromName, from, target.relative.name)
            }
            try target.withParent { (to, toName) throws(SystemError) in try body(from, fromName, to, toName) }
        }
    }
}
