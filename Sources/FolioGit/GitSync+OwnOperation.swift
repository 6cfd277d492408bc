import FolioSystem

extension GitSync {
    /// Notes the merge or rebase a pass begins (`merge HEAD REMOTE`), so that the next
    /// pass, finding it under way, knows it as one a killed pass left rather than the
    /// user's own.
    func noteOwnOperation(_ line: String) throws(GitSyncError) {
        do { try AtomicFile.write(Array((line + "\n").utf8), to: try RootedFolder.creating(state, mode: 0o700)["operation"]) } catch {
            throw GitSyncError(.gitFailed, "cannot write \(state): " + FileProblem.advice(error, writing: true, then: "sync again"))
        }
    }

    /// The pass's merge or rebase is done (or undone): no longer noted.
    func clearOwnOperation() throws(GitSyncError) {
        // A note already gone is what is wanted.
        try? AtomicFile.remove(RootedFolder(state)["operation"])
    }

    /// A merge or rebase a killed pass left under way is undone (the edits were committed
    /// before it began: nothing is lost), and the pass begins again. One the user began
    /// (not the one noted) is left alone.
    func undoOwnOperation() throws(GitSyncError) {
        guard let note = try? AtomicFile.contentsIfPresent(try RootedFolder(state)["operation"]) else { return }
        let words = String(decoding: note, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        // Cleared once undone (or found done): an undo that fails keeps the note, so
        // that the next pass tries again rather than taking git's state for the user's.
        guard words.count == 3 else { return try clearOwnOperation() }
        let (kind, head, remote) = (words[0], words[1], words[2])
        // git's own files, read as git keeps them (a linked work tree's are elsewhere).
        func gitFile(_ name: String) throws(GitSyncError) -> String? {
            (try? FileReading.contents(ofFileNamedByUser: try repository.gitPath(name))).map { String(decoding: $0, as: UTF8.self) }
        }
        if kind == "merge", let mergeHead = try gitFile("MERGE_HEAD"), mergeHead.hasPrefix(remote), try repository.commit("HEAD") == head {
            try repository.check(["merge", "--abort"])
        } else if kind == "rebase", let origHead = try rebaseOrigHead(gitFile), origHead.hasPrefix(head) {
            try repository.check(["rebase", "--abort"])
        } else if kind == "rebase", try rebaseOrigHead(gitFile) == nil, try quitRebaseThatNeverBegan(head: head) {
            // Done: the rebase's own files were all there was to undo.
        }
        try clearOwnOperation()
    }

    /// A rebase git began but could not set up (a full disk while it wrote its own
    /// files: no `orig-head`, so `git rebase --abort` fails too) is dropped with `git
    /// rebase --quit`, which touches neither the branch nor the work tree — only while
    /// the branch is still checked out at `head`, where the pass left it; true if done.
    func quitRebaseThatNeverBegan(head: String) throws(GitSyncError) -> Bool {
        guard try repository.run(["symbolic-ref", "-q", "HEAD"]).succeeded,
              let current = try repository.commit("HEAD"), current.hasPrefix(head) || head.hasPrefix(current)
        else { return false }
        try repository.check(["rebase", "--quit"])
        return true
    }

    /// The commit a rebase under way began from, whichever of git's two kinds it is.
    private func rebaseOrigHead(_ gitFile: (String) throws(GitSyncError) -> String?) throws(GitSyncError) -> String? {
        if let merging = try gitFile("rebase-merge/orig-head") { return merging }
        return try gitFile("rebase-apply/orig-head")
    }
}
