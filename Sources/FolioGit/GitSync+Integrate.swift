import FolioFolder
import FolioMerge
import FolioSystem

extension GitSync {
    /// Brings the remote branch's commits in: a fast-forward when this branch has none of
    /// its own, else a merge (or, with `pull.rebase`, a rebase of the commits not pushed).
    func integrate(_ upstream: Upstream, _ report: inout GitSyncReport) throws(GitSyncError) {
        // A remote branch not made yet (an empty repository): nothing to bring in; the push makes it.
        guard let remote = try repository.commit(upstream.trackingRef), let head = try repository.commit("HEAD") else { return }
        let counts = try repository.check(["rev-list", "--left-right", "--count", "HEAD..." + upstream.trackingRef]).text.split(separator: "\t")
        let (ahead, behind) = (Int(counts.first ?? "") ?? 0, Int(counts.last ?? "") ?? 0)
        guard behind > 0 else { return }
        if ahead == 0 {
            let paths = try repository.changedPaths(from: head, to: remote)
            let outcome = try repository.run(["merge", "--ff-only", "-q", upstream.trackingRef])
            guard outcome.succeeded else { throw Self.cannotBringIn(outcome, upstream) }
            report.record(.fastForwarded(to: remote, paths: paths))
        } else if upstream.rebases {
            try rebase(onto: upstream, head: head, remote: remote, &report)
        } else {
            try merge(upstream, head: head, remote: remote, &report)
        }
    }

    /// Merges the remote branch, then merges again with Folio every record both sides
    /// changed (git's line merge stands for everything else); what still clashes keeps
    /// the remote's version in the file and this device's as a copy. One commit.
    private func merge(_ upstream: Upstream, head: String, remote: String, _ report: inout GitSyncReport) throws(GitSyncError) {
        let base = try repository.check(["merge-base", head, remote]).text
        let local = Set(try repository.changedPaths(from: base, to: head)), incoming = try repository.changedPaths(from: base, to: remote)
        let both = incoming.filter { local.contains($0) }
        try noteOwnOperation("merge \(head) \(remote)")
        let outcome = try repository.run(["-c", "merge.conflictStyle=merge", "merge", "--no-ff", "--no-commit", "--no-edit", "-q", upstream.trackingRef])
        let mergeHead = try repository.gitPath("MERGE_HEAD")
        guard outcome.succeeded || GitRepository.exists(mergeHead) else {
            try clearOwnOperation()
            throw Self.cannotBringIn(outcome, upstream)
        }
        let stages = try unmergedStages()
        for path in both where FileMerge.isDocument(path) || stages[path] != nil {
            try settle(path, base: try blob(base, path), local: try blob(head, path), remote: try blob(remote, path), &report)
        }
        for path in stages.keys where !both.contains(path) {
            let staged = stages[path] ?? [:]
            try settle(path, base: try staged[1].map(blob), local: try staged[2].map(blob), remote: try staged[3].map(blob), &report)
        }
        try repository.check(["commit", "-q", "--no-verify", "--no-edit", "-m", "folio git-sync: merge \(upstream.name)"])
        try clearOwnOperation()
        report.record(.integrated(commit: try repository.check(["rev-parse", "HEAD"]).text, rebased: false, paths: both))
    }

    /// Replays this branch's commits not yet pushed onto the remote branch (as `git pull
    /// --rebase`); a step that conflicts is settled as a merge is (the remote's side in
    /// the file, this device's in a copy), and the rebase goes on.
    private func rebase(onto upstream: Upstream, head: String, remote: String, _ report: inout GitSyncReport) throws(GitSyncError) {
        try noteOwnOperation("rebase \(head) \(remote)")
        let quiet = ["GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true"]
        var outcome = try repository.run(["rebase", "-q", upstream.trackingRef], environment: quiet)
        var settled: [String] = []
        var steps = 0
        var skipped = false
        while try rebaseInProgress() {
            steps += 1
            guard steps < 100_000 else {
                try repository.run(["rebase", "--abort"])
                try clearOwnOperation()
                throw GitSyncError(.gitFailed, "the rebase onto \(upstream.name) did not end; it was undone; sync again (or set pull.rebase false)")
            }
            // In a rebase, stage 2 is the remote's line being built on, stage 3 this device's commit replayed.
            let stages = try unmergedStages()
            if stages.isEmpty && !outcome.succeeded {
                // A step whose changes the remote's line already holds is skipped; a step
                // git could not make for another reason (a full disk, a hook) is not: a
                // skip would drop this device's commit. Nor is a skip git could not make
                // (a full disk) tried again for ever. The rebase is undone (the commits
                // are as they were) and the pass stops.
                guard !skipped, try stepIsEmpty() else {
                    let stop: GitSyncError = try abandonRebase(outcome, upstream, head: head)
                    throw stop
                }
                outcome = try repository.run(["rebase", "--skip"], environment: quiet)
                skipped = true
                continue
            }
            skipped = false
            for (path, staged) in stages.sorted(by: { $0.key < $1.key }) {
                try settle(path, base: try staged[1].map(blob), local: try staged[3].map(blob), remote: try staged[2].map(blob), &report)
                settled.append(path)
            }
            outcome = try repository.run(["rebase", "--continue"], environment: quiet)
        }
        let rebased = try repository.commit("HEAD")
        guard outcome.succeeded || rebased != head else {
            try clearOwnOperation()
            throw Self.cannotBringIn(outcome, upstream)
        }
        try clearOwnOperation()
        report.record(.integrated(commit: try repository.check(["rev-parse", "HEAD"]).text, rebased: true, paths: settled))
    }

    /// Whether the rebase's current step, with nothing unmerged, would commit nothing:
    /// the index as HEAD has it.
    private func stepIsEmpty() throws(GitSyncError) -> Bool {
        try repository.run(["diff", "--cached", "--quiet", "HEAD"]).succeeded
    }

    /// Undoes the pass's rebase after a step git failed to make, and the error that
    /// stops the pass. Where the undo fails too (the disk still full) the rebase stays
    /// noted as the pass's own, and the next pass undoes it.
    private func abandonRebase(_ failed: GitOutcome, _ upstream: Upstream, head: String) throws(GitSyncError) -> GitSyncError {
        if try !repository.run(["rebase", "--abort"]).succeeded {
            // One git could not even set up is dropped; else the next pass undoes it (noted).
            guard try quitRebaseThatNeverBegan(head: head) else { throw Self.cannotBringIn(failed, upstream) }
        }
        try clearOwnOperation()
        return Self.cannotBringIn(failed, upstream)
    }

    /// One path's merge settled and staged: both sides' versions merged (Folio's document
    /// merge for a record, lines for other text); what clashes keeps the remote's version
    /// in the file and this device's in a conflict copy beside it; a side that deleted
    /// the file loses to one that changed it (nothing edited is lost); a binary file
    /// changed on both keeps the remote's, with this device's as the copy.
    private func settle(_ path: String, base: [UInt8]?, local: [UInt8]?, remote: [UInt8]?, _ report: inout GitSyncReport) throws(GitSyncError) {
        let kept: [UInt8]?, copy: [UInt8]?
        switch (local, remote) {
        case (let local?, let remote?) where local == remote:
            (kept, copy) = (remote, nil)
        case (let local?, let remote?) where Self.isBinary(local) || Self.isBinary(remote):
            (kept, copy) = (remote, local)
        case (let local?, let remote?):
            // The remote's side first: it is what the file keeps where the two clash.
            let merged = FileMerge.merge(path: path, base: base ?? [], ours: remote, theirs: local, policy: .copy)
            (kept, copy) = (merged.bytes, merged.conflictCopy)
        case (let local?, nil):
            (kept, copy) = (local, nil)
        case (nil, let remote?):
            (kept, copy) = (remote, nil)
        case (nil, nil):
            (kept, copy) = (nil, nil)
        }
        var staged = [path]
        if let kept { try write(kept, to: path) } else { try? AtomicFile.remove(RootedFolder(root)[path]) }
        if let copy {
            let name = ConflictCopies.name(for: path, timestamp: Syscall.localTimestamp(), device: deviceName)
            try write(copy, to: name)
            staged.append(name)
            report.record(.clash(path: path, copy: name))
        }
        try stage(staged)
    }

    /// Stages `paths` as the work tree has them: a file there added, one gone removed from
    /// the index (both sides may have deleted it, and `git add` refuses a path that
    /// matches nothing — a pass that failed on it would fail again every time).
    private func stage(_ paths: [String]) throws(GitSyncError) {
        // Probed through the rooted layer (no link followed); only a name that is not there
        // counts as gone — anything else is git's to judge.
        let folder = try? RootedFolder(root)
        func isGone(_ path: String) -> Bool {
            guard let folder else { return false }
            do { _ = try folder[path].linkStatus(); return false } catch { return error.isMissingPath }
        }
        let gone = paths.filter(isGone)
        let present = paths.filter { !gone.contains($0) }
        if !present.isEmpty { try repository.check(["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], input: Self.pathList(present)) }
        if !gone.isEmpty { try repository.check(["rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"], input: Self.pathList(gone)) }
    }

    /// Writes `bytes` at `path` in the work tree (its folders made), through the rooted layer.
    private func write(_ bytes: [UInt8], to path: String) throws(GitSyncError) {
        do { try AtomicFile.write(bytes, to: try RootedFolder(root)[path]) } catch {
            throw GitSyncError(.gitFailed, "cannot write \(path) in \(root): " + FileProblem.advice(error, writing: true, then: "sync again"))
        }
    }

    /// The unmerged paths and their stages (1 base, 2 ours, 3 theirs), by blob.
    private func unmergedStages() throws(GitSyncError) -> [String: [Int: String]] {
        var stages: [String: [Int: String]] = [:]
        for entry in try repository.check(["ls-files", "-u", "-z"]).output.split(separator: 0) {
            // `MODE SHA STAGE\tPATH`
            guard let tab = entry.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = entry[..<tab].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 3, let stage = Int(fields[2]) else { continue }
            stages[String(decoding: entry[entry.index(after: tab)...], as: UTF8.self), default: [:]][stage] = fields[1]
        }
        return stages
    }

    /// What `path` holds in `commit`, or nil when it holds nothing there.
    private func blob(_ commit: String, _ path: String) throws(GitSyncError) -> [UInt8]? {
        let outcome = try repository.run(["cat-file", "blob", commit + ":" + path])
        return outcome.succeeded ? outcome.output : nil
    }

    /// The blob `id`'s bytes.
    private func blob(_ id: String) throws(GitSyncError) -> [UInt8] {
        try repository.check(["cat-file", "blob", id]).output
    }

    private func rebaseInProgress() throws(GitSyncError) -> Bool {
        let merging = try repository.gitPath("rebase-merge"), applying = try repository.gitPath("rebase-apply")
        return GitRepository.exists(merging) || GitRepository.exists(applying)
    }

    static func isBinary(_ bytes: [UInt8]) -> Bool { bytes.prefix(8_000).contains(0) }

    /// Why the remote's commits could not be brought in, with what to do.
    static func cannotBringIn(_ outcome: GitOutcome, _ upstream: Upstream) -> GitSyncError {
        let said = outcome.errors.split(separator: "\n").prefix(4).joined(separator: "; ")
        if said.contains("would be overwritten") || said.contains("untracked working tree files") {
            return GitSyncError(.gitFailed, "the commits of \(upstream.name) change files that have edits not committed here (\(said)): a file left out (conflict markers) must be settled first; nothing was changed")
        }
        return GitSyncError(.gitFailed, "cannot bring in \(upstream.name): \(said.isEmpty ? "git exited \(outcome.status)" : said); nothing was lost, and the work tree is as it was")
    }
}
