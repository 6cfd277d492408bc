import FolioFolder
import FolioFormat
import FolioSystem

/// The folders under a relative folder of a watched root, the folder itself first,
/// without following symbolic links and without entering the folders Folio never
/// looks into (`.git`, `.stversions`, …). Folders that cannot be read are skipped.
/// `root` is opened afresh by path (a watcher follows the folder at its path, and a
/// folder made again there is the one watched); below it nothing follows a link.
func folders(under start: String, in root: String) -> [String] {
    // Only where to watch: a root that is not there is reported by the watcher's own check of its path.
    guard let folder = try? RootedFolder(root) else { return [] }
    var found: [String] = []
    var pending = [start]
    while let relative = pending.popLast() {
        found.append(relative)
        for entry in entries(of: folder[relative]) where entry.type == .directory && !FolderRules.isIgnoredDirectory(entry.name) {
            pending.append(joined(relative, entry.name))
        }
    }
    return found
}

/// The entries of a folder below a root, each with its type (an unknown type looked up
/// without following a link); none when it cannot be read.
func entries(of folder: RootedPath) -> [(name: String, type: EntryType)] {
    // Only where to watch or poll: a folder that cannot be listed is reported by the read of the folder (the snapshot's problems), and an entry that cannot be looked at is "other", never followed.
    ((try? folder.entries()) ?? []).map { entry in
        guard entry.type == .unknown else { return entry }
        return (entry.name, (try? FileStamp.of(folder.appending(entry.name)))?.type ?? .other)
    }
}
