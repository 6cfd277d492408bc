/// Finding files under a folder, without following symbolic links.
public enum DirectoryWalk {
    /// The relative paths of the regular files under `root` for which `include` is
    /// true, sorted. Folders for which `descend` is false are not entered.
    /// Symbolic links are never followed. Folders that cannot be read are
    /// reported in `problems` and skipped, so one bad folder does not hide the rest.
    public static func files(
        under root: String,
        descend: (_ name: String) -> Bool,
        include: (_ name: String) -> Bool
    ) throws(SystemError) -> (paths: [String], problems: [SystemError]) {
        var paths: [String] = []
        var problems: [SystemError] = []
        // Opening the root must work: a missing root is an error, not an empty folder.
        let rootDir = try Syscall.openDirectory(root)
        Syscall.closeDirectory(rootDir)
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? root : root + "/" + relative
            let dir: DirectoryStream
            do { dir = try Syscall.openDirectory(full) } catch {
                problems.append(error)
                continue
            }
            defer { Syscall.closeDirectory(dir) }
            while true {
                let entry: (name: String, type: EntryType)?
                do { entry = try Syscall.nextEntry(dir, path: full) } catch {
                    problems.append(error)
                    break
                }
                guard let entry else { break }
                let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                guard entry.type != .invalidName else {
                    problems.append(SystemError(operation: .readDirectory, path: root + "/" + child, code: Syscall.invalidName))
                    continue
                }
                var type = entry.type
                if type == .unknown {
                    do { type = Syscall.entryType(of: try Syscall.linkStatus(root + "/" + child)) } catch {
                        problems.append(error)
                        continue
                    }
                }
                switch type {
                case .directory where descend(entry.name): pending.append(child)
                case .regular where include(entry.name): paths.append(child)
                default: break
                }
            }
        }
        paths.sort()
        return (paths, problems)
    }
}
