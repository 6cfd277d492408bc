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
        // Level by level, the folders of a level listed on every core (a load of 100,000
        // files waited 60 ms for one core to list 200 folders); what to enter and keep
        // is decided here, in the order the folders were found.
        var level: [RelativePath] = [.root]
        while !level.isEmpty {
            let folders = level.map { RootedPath(root.folder, root.relative.appending($0.string)) }
            let listings = folders.count == 1 ? [listing(of: folders[0])] : ConcurrentSlots<Listing>.map(folders.count) { listing(of: folders[$0]) }
            var next: [RelativePath] = []
            for (relative, listing) in zip(level, listings) {
                // The root must open: a missing root is an error, not an empty folder.
                if relative.isRoot, let failure = listing.failure { throw failure }
                problems += listing.problems
                for (name, type) in listing.entries {
                    switch type {
                    case .directory where descend(name): next.append(relative.appending(name))
                    case .regular where include(name): paths.append(relative.appending(name).string)
                    default: break
                    }
                }
            }
            level = next
        }
        paths.sort()
        return (paths, problems)
    }

    /// What listing one folder found: its entries with their types (links and others
    /// included, for the caller to skip), what could not be read, and the failure to
    /// open it, if it did not open.
    private struct Listing: Sendable {
        var entries: [(name: String, type: EntryType)] = []
        var problems: [SystemError] = []
        var failure: SystemError?
    }

    /// Lists `folder`: every entry named, a twin or an invalid name reported instead, an
    /// entry of unknown type looked at (never followed).
    private static func listing(of folder: RootedPath) -> Listing {
        var listing = Listing()
        let dir: DirectoryStream
        do { dir = try folder.openDirectoryStream() } catch {
            listing.failure = error
            listing.problems.append(error)
            return listing
        }
        defer { Syscall.closeDirectory(dir) }
        var entries: [(name: String, type: EntryType)] = []
        while true {
            let entry: (name: String, type: EntryType)?
            do { entry = try Syscall.nextEntry(dir, path: folder.path) } catch {
                listing.problems.append(error)
                break
            }
            guard let entry else { break }
            entries.append(entry)
        }
        let twins = normalizationTwins(entries.map(\.name))
        for entry in entries {
            if !twins.isEmpty && twins.contains(Array(entry.name.utf8)) {
                listing.problems.append(SystemError(operation: .readDirectory, path: folder.appending(entry.name).path, code: Syscall.normalizationTwin))
                continue
            }
            guard entry.type != .invalidName else {
                listing.problems.append(SystemError(operation: .readDirectory, path: folder.appending(entry.name).path, code: Syscall.invalidName))
                continue
            }
            var type = entry.type
            if type == .unknown {
                do { type = Syscall.entryType(of: try Syscall.linkStatus(entry.name, in: Syscall.descriptor(of: dir), displayPath: folder.appending(entry.name).path)) } catch {
                    listing.problems.append(error)
                    continue
                }
            }
            listing.entries.append((entry.name, type))
        }
        return listing
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
