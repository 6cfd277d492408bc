import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions
import Foundation

/// Conflict naming: the names of conflict copies and of the replicas in conflict labels.
extension Applier {
    /// `name`, or `name` with `-2`, `-3`… before its extension, whichever no replica
    /// holds or had when scanned (two conflicts on one file in one second).
    func freeName(_ name: String) -> String {
        Self.freeName(name, scans: [scans.a, scans.b], roots: Replica.allCases.map(engine.folder))
    }

    /// `name`, or `name` with `-2`, `-3`… before its extension, whichever none of `scans`
    /// holds and no file under `roots` has.
    static func freeName(_ name: String, scans: [ReplicaScan], roots: [RootedFolder]) -> String {
        func taken(_ candidate: String) -> Bool {
            // A probe for a free name: one that cannot be looked at is taken as free, and the write (never replacing) refuses it if it is not.
            scans.contains { $0.files[SyncPath(file: candidate)] != nil } || roots.contains { (try? FileStamp.of($0[candidate])) != nil }
        }
        guard taken(name) else { return name }
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        let dot = name[slash...].lastIndex(of: ".").flatMap { $0 == slash ? nil : $0 } ?? name.endIndex
        var counter = 2
        while taken(name[..<dot] + "-\(counter)" + name[dot...]) { counter += 1 }
        return name[..<dot] + "-\(counter)" + name[dot...]
    }

    /// A replica's name in conflict labels and copies: its folder's name.
    func label(_ replica: Replica) -> String {
        let name = engine.root(replica).split(separator: "/").last.map(String.init) ?? replica.rawValue
        let other = engine.root(replica.other).split(separator: "/").last.map(String.init)
        return name == other ? replica.rawValue : name
    }

    /// `recipes/soup.md` → `recipes/soup.sync-conflict-20261130-120000-laptop.md`, as Syncthing names them.
    static func conflictCopyName(_ path: String, timestamp: String, replica: String) -> String {
        ConflictCopies.name(for: path, timestamp: timestamp, device: replica)
    }
}
