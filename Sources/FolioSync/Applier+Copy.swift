import FolioSystem
import FolioVersions

/// Copies of files changed on one side only, their reads and writes spread over the cores.
extension Applier {
    /// One copy's reads and writes: the source as the scan saw it (its stamp), written
    /// at a path the other side does not have, or over the file the other side's scan saw
    /// there (`replacing`, its stamp).
    struct Transfer: Sendable {
        var path: SyncPath
        var from: Replica
        var source: RootedPath
        var target: RootedPath
        var expected: FileStamp
        /// The source's bytes as its scan read them at `expected`, when the scan kept them.
        var contents: [UInt8]?
        var replacing: FileStamp?
        /// The permissions of the source.
        var sourceMode: UInt32

        /// The replaced file's permissions with the executable bit carried over; nil for a
        /// new file, which gets the source's narrowed by the umask (as `cp` does).
        var mode: UInt32? { replacing?.permissions(executable: sourceMode & 0o111 != 0) }
    }

    /// What a transfer did.
    enum Outcome: Sendable {
        /// Written; the bytes (for the merge base) and the new file's stamp.
        case copied([UInt8], FileStamp)
        /// Written to a temporary file beside the file it is to replace (renamed by
        /// ``commitReplacements()``, after one flush of them all).
        case prepared([UInt8], temporary: RootedPath)
        /// The source is no longer what the scan saw, or the target appeared meanwhile.
        case changed
        /// The source could not be read or the target written.
        case failed(String)
    }

    /// Copies each path in `copies` from its replica to the other: the same as
    /// ``copy(_:from:)`` one by one, but batch by batch (at most
    /// 1,024 files or 16 MB), each batch's reads and writes on two threads. A folder
    /// takes one file creation at a time, so each thread gets whole folders: split by
    /// path, two threads writing into one folder were slower than one. `progress` hears
    /// how many are done.
    mutating func copyFiles(_ copies: [(path: SyncPath, source: Replica)], progress: (Int) -> Void) {
        var start = 0
        // The batch being written, while this thread records the one before: its bases
        // kept and its entries archived were a fifth of a first sync, with both writers idle.
        // One batch is written at a time (each thread with whole folders of it).
        var flushing: ConcurrentSlots<Void>.Started?
        var running: (transfers: [Transfer], end: Int, done: ConcurrentSlots<[(Int, Outcome)]>.Started)?
        repeat {
            let previous = running.map { (transfers: $0.transfers, end: $0.end, done: $0.done.wait()) }
            running = nil
            if start < copies.count {
                var transfers: [Transfer] = []
                var bytes: Int64 = 0
                var end = start
                while end < copies.count && transfers.count < 1_024 && bytes < 16 << 20 {
                    let (path, source) = copies[end]
                    end += 1
                    guard let file = scanned(source).files[path], insideRoot(source, path), insideRoot(source.other, path) else { continue }
                    bytes += file.stamp.size
                    transfers.append(Transfer(
                        path: path, from: source, source: full(source, path), target: full(source.other, path), expected: file.stamp,
                        contents: scanned(source).contents[path], replacing: scanned(source.other).files[path]?.stamp, sourceMode: file.stamp.permissions))
                }
                // Whole folders to each thread, the next folder to whichever has fewer files.
                var shares: [[Int]] = [[], []]
                var shareOfFolder: [SyncPath: Int] = [:]
                for (index, transfer) in transfers.enumerated() {
                    let folder = transfer.path.ancestors.last ?? .root
                    let share = shareOfFolder[folder] ?? (shares[0].count <= shares[1].count ? 0 : 1)
                    shareOfFolder[folder] = share
                    shares[share].append(index)
                }
                let done = ConcurrentSlots<[(Int, Outcome)]>.start(2) { [transfers, shares] share in
                    var pins = FolderPins()
                    return shares[share].map { ($0, Self.carryOut(transfers[$0], pins: &pins)) }
                }
                running = (transfers, end, done)
                start = end
            }
            if let previous {
                record(previous.transfers, previous.done)
                progress(previous.end)
                // With more batches to come, what is written so far starts on its way to
                // the disk now, on a thread of its own that mostly waits: the flush before
                // the archive is saved then has only the last batches left to wait for.
                // That flush is the one that vouches for the copies; this one's outcome
                // does not matter.
                if running != nil, flushing?.isDone ?? true {
                    // Either root names it: the flush is `sync()`, of every file system.
                    let root = full(.a, .root)
                    flushing = ConcurrentSlots<Void>.start(1) { _ in _ = try? AtomicFile.flushFileSystem(containing: root) }
                }
            }
        } while running != nil
        _ = flushing?.wait()
    }

    /// Records what each transfer of a batch did.
    private mutating func record(_ transfers: [Transfer], _ done: [[(Int, Outcome)]]) {
        for (index, outcome) in done.joined().sorted(by: { $0.0 < $1.0 }) {
            let transfer = transfers[index], source = transfer.from
            switch outcome {
            case .copied(let bytes, _), .prepared(let bytes, _):
                guard let file = scanned(source).files[transfer.path] else { continue }
                // A replacement is renamed by commitReplacements, which puts its stamp in.
                let written: FileStamp
                if case .prepared(_, let temporary) = outcome {
                    guard let replacing = transfer.replacing, let mode = transfer.mode else { continue }
                    replacements.append((source.other, transfer.path, temporary, replacing, archive.entries[transfer.path], file.hash))
                    written = Self.placeholder(mode: mode)
                } else if case .copied(_, let stamp) = outcome {
                    written = stamp
                } else {
                    continue
                }
                report.record(.copied(ReplicaPath(source.other, transfer.path)))
                storeBase(bytes, hash: file.hash, at: transfer.path)
                record(transfer.path, hash: file.hash, file.stamp, in: source, other: written)
            case .changed:
                report.record(.changedDuringSync(path: transfer.path))
            case .failed(let reason):
                report.record(skipped: source.other, transfer.path, reason)
            }
        }
    }

    /// Reads the source (or takes the bytes its scan kept), if it still has the scan's stamp, and writes it as a new file at
    /// the target (a temporary file renamed only while nothing is there; flushed with
    /// the rest before the archive records it), or, to replace a file, to a temporary
    /// file beside it. Both folders are taken from `pins`: opened once for a thread's
    /// run of files in them, not resolved again for each step.
    static func carryOut(_ transfer: Transfer, pins: inout FolderPins) -> Outcome {
        let bytes: [UInt8]
        do {
            if let kept = transfer.contents {
                // Read by the scan at this very stamp: the file still has it, so it still holds them.
                guard try FileStamp.of(pins.pinned(transfer.source)) == transfer.expected else { return .changed }
                bytes = kept
            } else {
                guard let read = try contents(of: pins.pinned(transfer.source), ifStamped: transfer.expected) else { return .changed }
                bytes = read
            }
        } catch where error.code == Syscall.noSuchFile {
            return .changed
        } catch {
            return .failed(FileProblem.reading(error))
        }
        do throws(SystemError) {
            let target: RootedPath
            do { target = try pins.pinned(transfer.target) } catch where error.code == Syscall.noSuchFile {
                try transfer.target.parent.makeDirectories()
                target = try pins.pinned(transfer.target)
            }
            if transfer.replacing != nil {
                let temporary = try AtomicFile.prepare(bytes, beside: target, mode: transfer.mode)
                // Renamed once every copy is done: named from the root, it holds no folder open until then.
                return .prepared(bytes, temporary: transfer.target.sibling(temporary.name))
            }
            // Flushed with the rest before the archive records it.
            guard let written = try AtomicFile.createNew(bytes, at: target, creating: transfer.sourceMode) else { return .changed }
            return .copied(bytes, written)
        } catch {
            return .failed(cannotWrite(error))
        }
    }
}
