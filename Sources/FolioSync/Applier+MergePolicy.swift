import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions
import Foundation

/// Merge policy: both sides changed a file — merged (``FileMerge``), or kept both as a conflict copy.
extension Applier {
    mutating func merge(_ path: SyncPath) {
        report.record(.merged(path: path))
        guard !engine.options.dryRun, let fileA = scans.a.files[path], let fileB = scans.b.files[path],
              let bytesA = read(.a, path), let bytesB = read(.b, path)
        else { return }
        let files = PerReplica(a: fileA, b: fileB), bytes = PerReplica(a: bytesA, b: bytesB)
        // The newer version is "ours": it stays in place when a conflict needs a copy.
        let ours: Replica = fileA.stamp.modified >= fileB.stamp.modified ? .a : .b
        let (oursBytes, theirsBytes) = (bytes[ours], bytes[ours.other])
        let base = archive.entries[path].flatMap { loadBase($0.hash) } ?? (archive.entries[path] == nil ? [] : nil)
        var merged: [UInt8]
        var conflicts = 0
        var copyBytes: [UInt8]?
        if let base, Self.isText(oursBytes), Self.isText(theirsBytes), Self.isText(base) {
            let labels = MergeOptions(oursLabel: label(ours), baseLabel: "base", theirsLabel: label(ours.other))
            let result = FileMerge.merge(path: path.relative, base: base, ours: oursBytes, theirs: theirsBytes, options: labels, policy: engine.options.conflicts)
            (merged, conflicts, copyBytes) = (result.bytes, result.conflicts, result.conflictCopy)
        } else {
            // Binary, or no base to merge against: keep both, the newer in place.
            (merged, conflicts, copyBytes) = (oursBytes, 1, theirsBytes)
        }
        let executable = files[ours].stamp.isExecutable
        // The other version is saved first: were the sync killed between the writes, no
        // value would exist only in a file the merged version has already replaced.
        var copyPath: String?
        if conflicts > 0, let copyBytes {
            let name = SyncPath(file: freeName(Self.conflictCopyName(path.relative, timestamp: Syscall.localTimestamp(), replica: label(ours.other))))
            // As private as the file it is a copy of, on each side.
            guard let copyA = write(copyBytes, name, in: .a, executable: executable, newMode: fileA.stamp.permissions(executable: executable)),
                  let copyB = write(copyBytes, name, in: .b, executable: executable, newMode: fileB.stamp.permissions(executable: executable))
            else { return }
            storeBase(copyBytes, at: name)
            record(name, hash: SHA256.hash(copyBytes), stampA: copyA, stampB: copyB)
            copyPath = name.key
        }
        guard let stampA = write(merged, path, in: .a, executable: executable),
              let stampB = write(merged, path, in: .b, executable: executable)
        else { return }
        storeBase(merged, at: path)
        record(path, hash: SHA256.hash(merged), stampA: stampA, stampB: stampB)
        if conflicts > 0 { report.record(.conflict(path: path, copy: copyPath.map(SyncPath.init(file:)))) }
    }

    /// Text as git decides it: no NUL byte in the first 8,000.
    static func isText(_ bytes: [UInt8]) -> Bool { !bytes.prefix(8000).contains(0) }
}
