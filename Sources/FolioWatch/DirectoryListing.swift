import FolioFolder
import FolioFormat
import FolioSystem

/// The folders under a relative folder of a watched root, the folder itself first,
/// without following symbolic links and without entering the folders Folio never
/// looks into (`.git`, `.stversions`, …). Folders that cannot be read are skipped.
func folders(under start: String, in root: String) -> [String] {
    var found: [String] = []
    var pending = [start]
    while let relative = pending.popLast() {
        found.append(relative)
        let full = joined(root, relative)
        guard let dir = try? Syscall.openDirectory(full) else { continue }
        defer { Syscall.closeDirectory(dir) }
        while let entry = try? Syscall.nextEntry(dir, path: full) {
            var type = entry.type
            if type == .unknown { type = (try? FileStamp.of(full + "/" + entry.name))?.type ?? .other }
            if type == .directory && !FolderRules.isIgnoredDirectory(entry.name) {
                pending.append(joined(relative, entry.name))
            }
        }
    }
    return found
}
