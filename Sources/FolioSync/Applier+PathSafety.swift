import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions
import Foundation

/// Path safety: every path the sync touches stays inside its replica, under real folders (no symbolic link in the way).
extension Applier {
    /// Whether every folder on the way to `path` in `replica` is a real folder (or not
    /// there yet): Folio never reads, writes or deletes through a symbolic link, so it
    /// never touches anything outside the two roots.
    mutating func insideRoot(_ replica: Replica, _ syncPath: SyncPath) -> Bool {
        let path = syncPath.relative
        // The common case, a file in a folder already checked: only its name is looked at.
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
           case let folder = String(path[..<slash]), realFolders[replica].contains(folder) || absentFolders[replica].contains(folder) {
            let name = path[path.index(after: slash)...]
            if !name.isEmpty && name != "." && name != ".." { return true }
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            report.record(skipped: replica, SyncPath(key: path), "a name that would lead outside the replica")
            return false
        }
        var relative = ""
        // Below a folder not there yet, none is there: noted too, so that the next file
        // in the same folder takes the common case above.
        func absent() -> Bool {
            absentFolders[replica].insert(relative)
            absentFolders[replica].insert(parts.dropLast().joined(separator: "/"))
            return true
        }
        for part in parts.dropLast() {
            relative += relative.isEmpty ? String(part) : "/" + part
            let folder = engine.folder(replica)[relative]
            // A folder seen to be real once in this sync is not looked at again for every
            // file in it.
            if realFolders[replica].contains(relative) { continue }
            if absentFolders[replica].contains(relative) { return absent() }
            // A folder not there yet is made by the write below it, which never follows a link (paths resolve beneath the root); one that cannot be looked at fails that write, which reports it.
            guard let stamp = try? FileStamp.of(folder) else { return absent() }
            if !stamp.isDirectory {
                report.record(skipped: replica, SyncPath(key: path), stamp.isSymbolicLink
                    ? "the folder \(relative) is a symbolic link: Folio never writes through links; replace it with a real folder, or name it in .folioignore"
                    : "\(relative) is not a folder here: rename the file in the way, or the folder on the other side")
                return false
            }
            realFolders[replica].insert(relative)
        }
        return true
    }
}
