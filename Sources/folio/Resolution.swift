import FolioMerge
import FolioSync
import FolioSystem

/// Settling one conflict copy of a shared folder by hand (`folio resolve --keep`,
/// `--merge`): every write is guarded (made only over what was read), and what is
/// replaced or set aside goes to the folder's trash, never deleted.
struct Resolution {
    /// The folder, its lock held.
    let folder: SharedFolder
    /// The copy, relative to the folder.
    let copy: String
    /// The file it is a version of, relative to the folder.
    let file: String

    private var trash: Trash { Trash(state: folder.stateFolder) }

    /// Keeps the file as it is and moves the copy to the trash.
    func keepFile(display: String) throws -> Int32 {
        let copyStamp = try FileStamp.of(folder.rootFolder[copy])
        try trashCopy(copyStamp)
        Output.print("kept \(file); \(copy) is in the trash (folio restore \(display) \(copy) brings it back)")
        return ExitCode.success
    }

    /// Puts the copy's content in the file (its former content to the trash), then
    /// moves the copy to the trash.
    func keepCopy(display: String) throws -> Int32 {
        let (copyBytes, copyStamp) = try read(copy)
        if let (fileBytes, fileStamp) = try readIfPresent(file) {
            // Set aside before it is replaced, so that the file's version can be had back.
            try trash.keep(fileBytes, as: file, replica: .a, mode: fileStamp.permissions)
            try write(copyBytes, over: fileStamp)
        } else {
            guard try AtomicFile.write(copyBytes, to: folder.rootFolder[file], mode: copyStamp.permissions, replacingOnly: { $0 == nil }) else {
                throw changed(file)
            }
        }
        try trashCopy(copyStamp)
        // The history only helps later folds find a base; the copy is settled either way,
        // and the next fold or watch records the file again.
        try? folder.record([file])
        Output.print("put \(copy) in \(file); the file's former content and the copy are in the trash (folio restore \(display) lists them)")
        return ExitCode.success
    }

    /// Merges the copy into the file against the base a fold would take, conflict
    /// markers only where the two truly clash, then moves the copy to the trash.
    func merge(display: String) throws -> Int32 {
        let (copyBytes, copyStamp) = try read(copy)
        guard let (fileBytes, fileStamp) = try readIfPresent(file) else {
            throw ResolveCommand.Failure(description: "\(file) is gone, so there is nothing to merge into: --keep copy puts the copy back as \(file)")
        }
        if fileBytes == copyBytes {
            try trashCopy(copyStamp)
            Output.print("\(copy) held what \(file) holds; it is in the trash")
            return ExitCode.success
        }
        guard let base = folder.base(for: file, file: fileBytes, copy: copyBytes) else {
            throw ResolveCommand.Failure(description: "cannot merge \(copy): no earlier version of \(file) is known to serve as the base; "
                + "see how they differ (folio resolve \(display) \(copy)), then --keep file or --keep copy")
        }
        let merged = FileMerge.merge(path: file, base: base.bytes, ours: fileBytes, theirs: copyBytes, policy: .markers)
        try write(merged.bytes, over: fileStamp)
        try trashCopy(copyStamp)
        // The history only helps later folds find a base; the copy is settled either way,
        // and the next fold or watch records the file again.
        try? folder.record([file])
        let summary = "merged \(copy) into \(file) (base: \(base.source.rawValue)); the copy is in the trash"
        guard merged.conflicts > 0 else {
            Output.print(summary)
            return ExitCode.success
        }
        Output.print(summary + "\n\(merged.conflicts) conflict\(merged.conflicts == 1 ? "" : "s") marked in \(file) between <<<<<<< and >>>>>>>: edit \(merged.conflicts == 1 ? "it" : "them") away")
        return ExitCode.problems
    }

    /// The bytes of `path` and its stamp, taken first: a write guarded by that stamp
    /// then fails if the file changed after it, even while it was being read.
    private func read(_ path: String) throws -> (bytes: [UInt8], stamp: FileStamp) {
        let stamp = try FileStamp.of(folder.rootFolder[path])
        return (try FileReading.contents(of: folder.rootFolder[path]), stamp)
    }

    private func readIfPresent(_ path: String) throws -> (bytes: [UInt8], stamp: FileStamp)? {
        // Whatever stops the stat counts as absent: the writes that follow replace only
        // a file that is not there (`replacingOnly`), so one that is is never overwritten.
        guard (try? FileStamp.of(folder.rootFolder[path])) != nil else { return nil }
        return try read(path)
    }

    /// Replaces the file with `bytes`, keeping its permissions, only if it is still as read.
    private func write(_ bytes: [UInt8], over stamp: FileStamp) throws {
        guard try AtomicFile.write(bytes, to: folder.rootFolder[file], mode: stamp.permissions, replacingOnly: { $0 == stamp }) else {
            throw changed(file)
        }
    }

    /// Moves the copy to the trash, only if it is still as read.
    private func trashCopy(_ stamp: FileStamp) throws {
        guard try trash.move(copy, from: folder.rootFolder, replica: .a, expected: stamp, hash: nil) else { throw changed(copy) }
    }

    private func changed(_ path: String) -> ResolveCommand.Failure {
        ResolveCommand.Failure(description: "\(path) changed while it was being resolved; look again (folio resolve \(folder.root) \(copy))")
    }
}
