import FolioMerge
import FolioSystem
import FolioVersions

/// Settling one conflict copy of a shared folder by hand (`folio resolve --keep`,
/// `--merge`, or an app's own "keep this one"): every write is guarded (made only over
/// what was read), and what is replaced or set aside goes to the folder's trash, never
/// deleted.
public struct ConflictResolution {
    /// The folder, its lock held.
    public let folder: SharedFolder
    /// The copy, relative to the folder.
    public let copy: String
    /// The file it is a version of, relative to the folder.
    public let file: String

    /// Settles `copy`, a version of `file`, in `folder`.
    public init(folder: SharedFolder, copy: String, file: String) { (self.folder, self.copy, self.file) = (folder, copy, file) }

    /// What a resolution did.
    public enum Outcome: Sendable, Equatable {
        /// The file stays as it is; the copy is in the trash.
        case keptFile
        /// The copy's content is in the file; the file's former content and the copy are in the trash.
        case keptCopy
        /// The copy held what the file holds; it is in the trash.
        case copyHeldTheFile
        /// The copy merged into the file against a base from `base`; `conflicts` clashes
        /// are marked in the file. The copy is in the trash.
        case merged(base: BaseCandidate.Source, conflicts: Int)
    }

    /// Why a resolution could not be made; nothing was written.
    public enum Failure: Error, Sendable, Equatable {
        /// The file is gone, so there is nothing to merge into.
        case fileGone
        /// No earlier version of the file is known to serve as the merge's base.
        case noBase
        /// This path changed while it was being resolved.
        case changed(String)
    }

    /// How to settle a copy.
    public enum Choice: Sendable, Hashable {
        /// Keep the file as it is; the copy goes to the trash.
        case keepFile
        /// Put the copy's content in the file; the file's former content and the copy go to the trash.
        case keepCopy
        /// Merge the copy into the file against the version seen before either, marking
        /// only what truly clashes; the copy goes to the trash.
        case merge
    }

    /// Settles the copy as `choice` says.
    public func settle(_ choice: Choice) throws -> Outcome {
        switch choice {
        case .keepFile: try keepFile()
        case .keepCopy: try keepCopy()
        case .merge: try merge()
        }
    }

    var trash: Trash { Trash(state: folder.stateFolder) }

    /// Keeps the file as it is and moves the copy to the trash.
    public func keepFile() throws -> Outcome {
        let copyStamp = try FileStamp.of(folder.rootFolder[copy])
        try trashCopy(copyStamp)
        return .keptFile
    }

    /// Puts the copy's content in the file (its former content to the trash), then
    /// moves the copy to the trash.
    public func keepCopy() throws -> Outcome {
        let (copyBytes, copyStamp) = try read(copy)
        if let (fileBytes, fileStamp) = try readIfPresent(file) {
            // Set aside before it is replaced, so that the file's version can be had back.
            try trash.keep(fileBytes, asFolderFile: file, mode: fileStamp.permissions)
            try write(copyBytes, over: fileStamp)
        } else {
            guard try AtomicFile.write(copyBytes, to: folder.rootFolder[file], mode: copyStamp.permissions, replacingOnly: { $0 == nil }) else {
                throw Failure.changed(file)
            }
        }
        try trashCopyAndRecordFile(copyStamp)
        return .keptCopy
    }

    /// Merges the copy into the file against the base a fold would take, conflict
    /// markers only where the two truly clash, then moves the copy to the trash.
    public func merge() throws -> Outcome {
        let (copyBytes, copyStamp) = try read(copy)
        guard let (fileBytes, fileStamp) = try readIfPresent(file) else { throw Failure.fileGone }
        if fileBytes == copyBytes {
            try trashCopy(copyStamp)
            return .copyHeldTheFile
        }
        guard let base = folder.base(for: file, file: fileBytes, copy: copyBytes) else { throw Failure.noBase }
        let merged = FileMerge.merge(path: file, base: base.bytes, ours: fileBytes, theirs: copyBytes, policy: .markers)
        try write(merged.bytes, over: fileStamp)
        try trashCopyAndRecordFile(copyStamp)
        return .merged(base: base.source, conflicts: merged.conflicts)
    }

    /// The bytes of `path` and its stamp, taken first: a write guarded by that stamp
    /// then fails if the file changed after it, even while it was being read.
    func read(_ path: String) throws -> (bytes: [UInt8], stamp: FileStamp) {
        let stamp = try FileStamp.of(folder.rootFolder[path])
        return (try FileReading.contents(of: folder.rootFolder[path]), stamp)
    }

    func readIfPresent(_ path: String) throws -> (bytes: [UInt8], stamp: FileStamp)? {
        // Whatever stops the stat counts as absent: the writes that follow replace only
        // a file that is not there (`replacingOnly`), so one that is is never overwritten.
        guard (try? FileStamp.of(folder.rootFolder[path])) != nil else { return nil }
        return try read(path)
    }

    /// Replaces the file with `bytes`, keeping its permissions, only if it is still as read.
    func write(_ bytes: [UInt8], over stamp: FileStamp) throws {
        guard try AtomicFile.write(bytes, to: folder.rootFolder[file], mode: stamp.permissions, replacingOnly: { $0 == stamp }) else {
            throw Failure.changed(file)
        }
    }

    /// The file written: the copy (as read at `copyStamp`) moved to the trash, and the
    /// file recorded in the history.
    func trashCopyAndRecordFile(_ copyStamp: FileStamp) throws {
        try trashCopy(copyStamp)
        // The history only helps later folds find a base; the copy is settled either way,
        // and the next fold or watch records the file again.
        _ = try? folder.record([file])
    }

    /// Moves the copy to the trash, only if it is still as read.
    func trashCopy(_ stamp: FileStamp) throws {
        guard try trash.move(copy, fromFolder: folder.rootFolder, expected: stamp, hash: nil) else { throw Failure.changed(copy) }
    }
}
