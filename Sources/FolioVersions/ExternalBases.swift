import Foundation
import FolioSystem

/// Earlier versions of a file kept by other tools, as base candidates: Syncthing's
/// `.stversions/` (`DIR/NAME~YYYYMMDD-HHMMSS.EXT`, timed when Syncthing set them aside)
/// and git's last commit of the path when the folder is in a git work tree.
package enum ExternalBases {
    /// Syncthing's kept versions of `path` in the folder `root`, with their contents.
    package static func syncthingVersions(root: RootedFolder, path: String) -> [(candidate: BaseCandidate, bytes: [UInt8])] {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) + "/" } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name, ext = dot.map { String(name[$0...]) } ?? ""
        let directory = root[".stversions" + (folder.isEmpty ? "" : "/" + folder.dropLast())]
        var found: [(BaseCandidate, [UInt8])] = []
        for entry in directory.namesIfListable() where entry.hasPrefix(stem + "~") && entry.hasSuffix(ext) {
            let time = entry.dropFirst(stem.count + 1).dropLast(ext.count)
            guard let seconds = Syscall.epochSeconds(fromLocalTimestamp: time),
                  // Other tools' backups are only candidate bases: one that cannot be read is no candidate, and the fold says when it found none.
                  let bytes = try? FileReading.contents(of: directory.appending(entry)), ConflictFold.isText(bytes)
            else { continue }
            found.append((BaseCandidate(hash: SHA256.hash(bytes), time: Int64(seconds) * 1_000_000_000, source: .syncthingVersions), bytes))
        }
        return found
    }

    /// The last committed version of `path` when `root` is in a git work tree (and git
    /// is installed), with its commit time; nil otherwise.
    package static func git(root: String, path: String) -> (candidate: BaseCandidate, bytes: [UInt8])? {
        guard let time = GitProcess.output(["-C", root, "log", "-1", "--format=%ct", "HEAD", "--", path]).flatMap({
            Int64(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }), let bytes = GitProcess.output(["-C", root, "show", "HEAD:./" + path]), ConflictFold.isText(bytes)
        else { return nil }
        return (BaseCandidate(hash: SHA256.hash(bytes), time: time * 1_000_000_000, source: .git), bytes)
    }
}
