/// Finding files under a folder, without following symbolic links.
public enum DirectoryWalk {
    /// The paths (relative to `root`) of the regular files under `root` for which `include` is
    /// true, sorted. Folders for which `descend` is false are not entered.
    /// Symbolic links are never followed: each folder is opened below the root's
    /// descriptor. Folders that cannot be read are reported in `problems` and skipped,
    /// so one bad folder does not hide the rest.
    public static func files(
        under root: RootedPath,
        descend: (_ name: String) -> Bool,
        include: (_ name: String) -> Bool
    ) throws(SystemError) -> (paths: [String], problems: [SystemError]) {
        var paths: [String] = []
        var problems: [SystemError] = []
        var pending: [RelativePath] = [.root]
        let base = root.relative
        while let relative = pending.popLast() {
            let folder = RootedPath(root.folder, base.appending(relative.string))
            let dir: DirectoryStream
            do { dir = try folder.openDirectoryStream() } catch {
                // The root must open: a missing root is an error, not an empty folder.
                if relative.isRoot { throw error }
                problems.append(error)
                continue
            }
            defer { Syscall.closeDirectory(dir) }
            var entries: [(name: String, type: EntryType)] = []
            while true {
                let entry: (name: String, type: EntryType)?
                do { entry = try Syscall.nextEntry(dir, path: folder.path) } catch {
                    problems.append(error)
                    break
                }
                guard let entry else { break }
                entries.append(entry)
            }
            let twins = normalizationTwins(entries.map(\.name))
            for entry in entries {
                let child = relative.appending(entry.name)
                if !twins.isEmpty && twins.contains(Array(entry.name.utf8)) {
                    problems.append(SystemError(operation: .readDirectory, path: folder.appending(entry.name).path, code: Syscall.normalizationTwin))
                    continue
                }
                guard entry.type != .invalidName else {
                    problems.append(SystemError(operation: .readDirectory, path: folder.appending(entry.name).path, code: Syscall.invalidName))
                    continue
                }
                var type = entry.type
                if type == .unknown {
                    do { type = Syscall.entryType(of: try Syscall.linkStatus(entry.name, in: Syscall.descriptor(of: dir), displayPath: folder.appending(entry.name).path)) } catch {
                        problems.append(error)
                        continue
                    }
                }
                switch type {
                case .directory where descend(entry.name): pending.append(child)
                case .regular where include(entry.name): paths.append(child.string)
                default: break
                }
            }
        }
        paths.sort()
        return (paths, problems)
    }

    /// The names (as bytes) among `names` that another one equals as text but not byte for byte:
    /// the NFC and NFD spellings of one name, which Swift's `String` (and so every
    /// dictionary keyed by path) takes for one. Only names beyond ASCII can be such.
    public static func normalizationTwins(_ names: [String]) -> Set<[UInt8]> {
        var byText: [String: [String]] = [:]
        for name in names where !name.utf8.allSatisfy({ $0 < 0x80 }) { byText[name, default: []].append(name) }
        var twins: Set<[UInt8]> = []
        for group in byText.values where Set(group.map { Array($0.utf8) }).count > 1 {
            for name in group { twins.insert(Array(name.utf8)) }
        }
        return twins
    }
}
