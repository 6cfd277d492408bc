import Foundation
import FolioSystem
import FolioVersions

extension ReplicaScan {
    /// The rule for names that differ only by Unicode normalization (`café` as one
    /// precomposed `é`, NFC, or as `e` and a combining accent, NFD, as macOS and some
    /// tools write it). Folio syncs every name in NFC, as Syncthing does:
    ///
    /// - a name that is not NFC is renamed to NFC in its replica (a rename that never
    ///   replaces anything), then synced — so a name typed on a Mac and the same name
    ///   typed on Linux are one file, not a loop of "changed during sync";
    /// - on a file system that folds normalization (APFS, HFS+), where the NFC spelling
    ///   already opens the file, nothing is renamed;
    /// - two names in one folder that are the same in NFC are left alone and reported
    ///   (exit 1), as names that differ only by case are: Folio never picks one.
    ///
    /// Returns the entries of `entries` (names beyond ASCII, listed in the folder `full`,
    /// `relative` to the root) to visit, under their NFC names. Without `renaming` (a
    /// dry run) a name that would be renamed is reported instead.
    static func normalize(
        _ entries: [(name: String, type: EntryType)], in full: RootedPath, relative: String, renaming: Bool, scan: inout ReplicaScan
    ) -> [(name: String, type: EntryType)] {
        var byNFC: [[UInt8]: [(name: String, type: EntryType)]] = [:]
        var order: [[UInt8]] = []
        for entry in entries {
            let nfc = entry.type == .invalidName ? Array(entry.name.utf8) : Array(entry.name.precomposedStringWithCanonicalMapping.utf8)
            if byNFC[nfc] == nil { order.append(nfc) }
            byNFC[nfc, default: []].append(entry)
        }
        var visit: [(name: String, type: EntryType)] = []
        for nfcBytes in order {
            let group = byNFC[nfcBytes]!
            let nfc = String(decoding: nfcBytes, as: UTF8.self)
            let path = relative.isEmpty ? nfc : relative + "/" + nfc
            guard group.count == 1 else {
                scan.skipped[path] = "\(group.count) names here differ only by Unicode normalization (NFC and NFD spellings of one name): "
                    + "left alone; rename or remove all but one"
                continue
            }
            let (name, type) = group[0]
            if Array(name.utf8) == nfcBytes {
                visit.append((name, type))
                continue
            }
            // A file system that folds normalization opens the file by its NFC name already.
            // Probes: names that cannot be looked at are not one file, and are handled as two names below.
            if let listed = try? FileStamp.of(full.appending(name)), let asNFC = try? FileStamp.of(full.appending(nfc)),
               listed.inode == asNFC.inode {
                visit.append((nfc, type))
                continue
            }
            guard renaming else {
                scan.skipped[path] = "the name is not in NFC (Unicode's precomposed form): a sync would rename it to NFC"
                continue
            }
            do {
                try full.appending(name).renameWithoutReplacing(to: full.appending(nfc))
                scan.normalized.append(path)
                visit.append((nfc, type))
            } catch {
                scan.skipped[path] = "the name is not in NFC (Unicode's precomposed form) and could not be renamed to it: \(error); rename it"
            }
        }
        return visit
    }
}
