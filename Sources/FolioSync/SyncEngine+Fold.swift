import FolioFolder
import FolioFormat
import FolioMerge
import FolioSystem

/// Other tools' conflict copies, folded back into the files they copy.
extension Applier {
    /// Folds other tools' conflict copies (`copies`, each with its original, on one
    /// replica) back into their files: merged one after another against the archived
    /// base, each into the result of the last, and, when a merge is clean, that copy
    /// counted in. The original gets one replacement with all of them
    /// (``commitReplacements()``); the copies go to the trash after it (``finishFolds()``).
    /// A copy that conflicts stays, and is synced like any file. A copy a killed sync had
    /// already merged (the original holds that merge, the copy is as it was) goes straight
    /// to the trash.
    mutating func fold(_ copies: [String], into original: String, on replica: Replica) {
        guard let file = scanned(replica).files[original] else { return }
        var pending = copies
        let carried = pendingFolds.count
        for copy in copies where !engine.options.dryRun {
            guard let copyFile = scanned(replica).files[copy],
                  let begun = unfinishedFolds.entries.first(where: { $0.replica == replica && $0.copy == copy }),
                  begun.mergedHash == file.hash, begun.copyHash == copyFile.hash
            else { continue }
            pendingFolds.append(begun)
            pending.removeAll { $0 == copy }
        }
        guard !pending.isEmpty, var ours = read(replica, original) else { return }
        let now = engine.now
        if !engine.options.dryRun { try? history?.record(ours, at: original, time: now) }
        var merged: [(copy: String, hash: SHA256.Digest)] = []
        for copy in pending {
            guard let theirs = read(replica, copy) else { continue }
            let theirsHash = SHA256.hash(theirs)
            if !engine.options.dryRun { try? history?.record(theirs, at: copy, time: now) }
            // Each copy against the base chosen for it and the file as merged so far.
            let base = history.flatMap {
                BaseChoice.base(for: ConflictCopies.rootOriginal(of: copy) ?? original, file: ours, copy: theirs, history: $0, root: engine.folder(replica), useGit: true)
            }
            switch ConflictFold.fold(path: original, base: base?.bytes, file: ours, copy: theirs) {
            case .identical: break
            case .merged(let bytes): ours = bytes
            case .conflict(let clash):
                report.keptCopies["\(replica.rawValue):\(copy)"] = clash
                continue
            case .noBase:
                report.keptCopies["\(replica.rawValue):\(copy)"] = "no earlier version of \(original) is known to serve as the base"
                continue
            case .notText:
                report.keptCopies["\(replica.rawValue):\(copy)"] = "not a text file"
                continue
            }
            merged.append((copy, theirsHash))
        }
        if engine.options.dryRun {
            report.folded += merged.map(\.copy)
            return
        }
        guard !merged.isEmpty else { return }
        let mergedHash = SHA256.hash(ours)
        if mergedHash != file.hash {
            guard writeReplacing(ours, original, in: replica, expected: file.stamp, executable: file.stamp.isExecutable) != nil else { return }
            try? history?.record(ours, at: original, time: now)
        }
        // The copies a killed sync had merged are in this merge too: its hash is theirs now.
        for index in carried..<pendingFolds.count { pendingFolds[index].mergedHash = mergedHash }
        for (copy, hash) in merged {
            pendingFolds.append(.init(replica: replica, copy: copy, original: original, copyHash: hash, mergedHash: mergedHash))
        }
    }

    /// Trashes the copies whose merged files are in place (``commitReplacements()`` runs
    /// first, so a copy is never the only place its content is on disk but the trash); a
    /// copy whose original changed meanwhile stays, to be folded next time (not synced
    /// as a file of its own meanwhile: once the archive knows it, it is no longer new).
    /// Returns the copies left (by replica), for the sync to leave alone this time.
    mutating func finishFolds() -> [(copy: String, replica: Replica)] {
        defer { pendingFolds.removeAll() }
        let left = pendingFolds.filter { report.changedDuringSync.contains($0.original) }.map { ($0.copy, $0.replica) }
        for fold in pendingFolds where !report.changedDuringSync.contains(fold.original) {
            // Only once the original is seen to hold the merge.
            guard let bytes = try? FileReading.contents(of: full(fold.replica, fold.original)), SHA256.hash(bytes) == fold.mergedHash else {
                report.changedDuringSync.append(fold.original)
                continue
            }
            delete(fold.copy, in: fold.replica)
            report.deleted.removeAll { $0 == fold.copy }
            // Reported as folded once it is in the trash (else `delete` said why not).
            if (try? FileStamp.of(full(fold.replica, fold.copy))) == nil { report.folded.append(fold.copy) }
        }
        return left
    }
}

extension SyncEngine {
    /// Folds the conflict copies other tools left in either replica (new since the last
    /// sync) back into their files, before anything else is decided; rescans what that
    /// changed. Returns the copies folded.
    func foldConflictCopies(
        _ scanA: inout ReplicaScan, _ scanB: inout ReplicaScan, archive: SyncArchive, state: RootedFolder, bases: BaseStore, history: VersionHistory, ignore: FolioIgnore
    ) throws(SyncError) -> (folded: [String], kept: [String: String]) {
        var folding = Applier(engine: self, state: state, bases: bases, history: history, scanA: scanA, scanB: scanB, archive: archive, report: SyncReport())
        folding.unfinishedFolds = FoldJournal.load(state)
        for (replica, scan) in [(Replica.a, scanA), (.b, scanB)] {
            // Every copy is tried, every time: one that could not be folded is reported
            // again, and one present at the first sync is folded like any other.
            var copiesOf: [String: [String]] = [:]
            for path in scan.changed where archive.entries[path] == nil && ConflictCopies.original(of: path) != nil {
                if let original = ConflictCopies.original(of: path), scan.files[original] != nil { copiesOf[original, default: []].append(path) }
            }
            for (original, copies) in copiesOf.sorted(by: { $0.key < $1.key }) { folding.fold(copies.sorted(), into: original, on: replica) }
        }
        // The merged files replace their originals before any copy goes to the trash; the
        // journal says which copies are merged in, were the sync killed in between. What a
        // killed sync journaled and this one did not look at (its file was left out, say)
        // stays in the journal while its copy is there.
        let unfinished = folding.unfinishedFolds.entries
        let unused = unfinished.filter { old in
            !folding.pendingFolds.contains { $0.replica == old.replica && $0.copy == old.copy }
                && (try? FileStamp.of(folder(old.replica)[old.copy])) != nil
        }
        let journaled = !folding.pendingFolds.isEmpty
        if journaled && !options.dryRun {
            do { try FoldJournal(entries: folding.pendingFolds + unused).save(state) } catch {
                throw SyncError(.stateIO, "cannot save the fold journal in \(state.path): " + FileProblem.advice(any: error, writing: true) + "; nothing was changed")
            }
        }
        folding.commitReplacements()
        let foldLater = folding.finishFolds()
        if !options.dryRun && (journaled || unused.count != unfinished.count) {
            if unused.isEmpty { FoldJournal.remove(state) } else { try? FoldJournal(entries: unused).save(state) }
        }
        // Anything the folding changed on disk is seen afresh.
        if journaled {
            for (index, replica) in [Replica.a, .b].enumerated() {
                let rescan = try ReplicaScan.scan(folder(replica), ignoring: ignore, known: Self.known(archive, replica))
                if index == 0 { scanA = rescan } else { scanB = rescan }
            }
            for (copy, replica) in foldLater {
                let reason = "a conflict copy whose file changed during the sync: folded next time"
                if replica == .a { scanA.skipped[copy] = reason } else { scanB.skipped[copy] = reason }
            }
        }
        return (folding.report.folded, folding.report.keptCopies)
    }
}

/// The folds a sync has begun, saved in the state folder (`folds`) before any merged
/// file replaces its original, and removed once the copies are in the trash. Were the
/// sync killed in between, the next one finds each original already holding the merge
/// and its copy unchanged, and trashes the copy without merging it again (a second merge
/// of changes already in could conflict where the first did not).
struct FoldJournal: Sendable, Equatable {
    /// One fold: the copy on `replica`, folded into `original`, with the copy's hash and
    /// the merged file's.
    struct Entry: Sendable, Equatable {
        var replica: Replica
        var copy: String
        var original: String
        var copyHash: SHA256.Digest
        var mergedHash: SHA256.Digest
    }

    var entries: [Entry] = []

    static func path(_ state: RootedFolder) -> RootedPath { state["folds"] }

    /// The journal in `state`; empty when there is none (or it cannot be read: then the
    /// copies are merged again, which loses nothing).
    static func load(_ state: RootedFolder) -> FoldJournal {
        guard let bytes = (try? AtomicFile.contentsIfPresent(path(state))) ?? nil else { return FoldJournal() }
        var journal = FoldJournal()
        for line in bytes.split(separator: 10) {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 5, let replica = Replica(rawValue: fields[0]), let copy = SyncArchive.unescaped(fields[1]),
                  let original = SyncArchive.unescaped(fields[2]), let copyHash = SHA256.Digest(hex: fields[3]),
                  let mergedHash = SHA256.Digest(hex: fields[4])
            else { continue }
            journal.entries.append(Entry(replica: replica, copy: copy, original: original, copyHash: copyHash, mergedHash: mergedHash))
        }
        return journal
    }

    /// Saves the journal durably in `state`.
    func save(_ state: RootedFolder) throws(SystemError) {
        let text = entries.map {
            [$0.replica.rawValue, SyncArchive.escaped($0.copy), SyncArchive.escaped($0.original), $0.copyHash.description, $0.mergedHash.description]
                .joined(separator: "\t") + "\n"
        }.joined()
        _ = try AtomicFile.write(Array(text.utf8), to: Self.path(state), mode: 0o600, replacingOnly: nil)
    }

    /// Removes the journal from `state`.
    static func remove(_ state: RootedFolder) {
        try? AtomicFile.remove(path(state))
    }
}
