import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem
import FolioVersions
import Foundation

/// Merge policy: both sides changed a file — merged (``FileMerge``), or kept both as a conflict copy.
extension Applier {
    /// Merges `path`, which both sides changed, and writes the result to both (with a
    /// conflict copy where the two clash).
    ///
    /// A dry run decides it the same way (the same reads, the same merge) and writes
    /// nothing: it reports a conflict where the real run would keep one, and a merge
    /// only where the real run would merge. A path is reported merged or in conflict,
    /// never both, and only once its writes are done.
    mutating func merge(_ path: SyncPath) {
        guard let fileA = scans.a.files[path], let fileB = scans.b.files[path],
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
        guard !engine.options.dryRun else {
            let copy = conflicts > 0 && copyBytes != nil
                ? conflictCopyPath(path, keeping: ours.other) : nil
            return report.record(conflicts > 0 ? .conflict(path: path, copy: copy) : .merged(path: path))
        }
        let executable = files[ours].stamp.isExecutable
        // The other version is saved first: were the sync killed between the writes, no
        // value would exist only in a file the merged version has already replaced.
        var copyPath: String?
        if conflicts > 0, let copyBytes {
            let name = conflictCopyPath(path, keeping: ours.other)
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
        report.record(conflicts > 0 ? .conflict(path: path, copy: copyPath.map(SyncPath.init(file:))) : .merged(path: path))
    }

    /// A free name for the conflict copy of `path` that keeps `replica`'s version.
    private func conflictCopyPath(_ path: SyncPath, keeping replica: Replica) -> SyncPath {
        SyncPath(file: freeName(Self.conflictCopyName(path.relative, timestamp: Syscall.localTimestamp(), replica: label(replica))))
    }

    /// Text as git decides it: no NUL byte in the first 8,000.
    static func isText(_ bytes: [UInt8]) -> Bool { !bytes.prefix(8000).contains(0) }
}
