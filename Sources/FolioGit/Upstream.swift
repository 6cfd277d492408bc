/// The remote branch a branch syncs with: `origin` and `refs/heads/main`, tracked here as
/// `refs/remotes/origin/main`.
struct Upstream: Sendable, Equatable {
    /// The branch checked out.
    var branch: String
    /// The remote's name.
    var remote: String
    /// The branch on the remote (`refs/heads/main`).
    var mergeRef: String
    /// Whether the user's configuration asks for a rebase rather than a merge
    /// (`branch.NAME.rebase`, else `pull.rebase`).
    var rebases: Bool

    /// Where this repository keeps the remote branch as last fetched.
    var trackingRef: String {
        "refs/remotes/\(remote)/" + (mergeRef.hasPrefix("refs/heads/") ? String(mergeRef.dropFirst("refs/heads/".count)) : mergeRef)
    }

    /// `origin/main`, as people name it.
    var name: String { String(trackingRef.dropFirst("refs/remotes/".count)) }

    /// The upstream of the branch checked out in `repository`.
    static func of(_ repository: GitRepository) throws(GitSyncError) -> Upstream {
        let head = try repository.run(["symbolic-ref", "--quiet", "--short", "HEAD"])
        guard head.succeeded, !head.text.isEmpty else {
            throw GitSyncError(.notSyncable, "\(repository.root): HEAD is not on a branch (detached): check out the branch to sync (git switch main), then sync again")
        }
        let branch = head.text
        func setting(_ name: String) throws(GitSyncError) -> String? {
            let value = try repository.run(["config", "--get", name])
            return value.succeeded ? value.text : nil
        }
        guard let remote = try setting("branch.\(branch).remote"), let merge = try setting("branch.\(branch).merge") else {
            let remotes = try repository.check(["remote"]).text.split(separator: "\n")
            let advice = remotes.isEmpty
                ? "add one (git remote add origin URL), then push it once with git push -u origin \(branch)"
                : "set one with git push -u \(remotes[0]) \(branch) (or git branch --set-upstream-to \(remotes[0])/\(branch))"
            throw GitSyncError(.notSyncable, "branch \(branch) has no remote branch to sync with: \(advice), then sync again")
        }
        var rebase = try setting("branch.\(branch).rebase")
        if rebase == nil { rebase = try setting("pull.rebase") }
        return Upstream(branch: branch, remote: remote, mergeRef: merge, rebases: ["true", "merges", "interactive", "i", "m"].contains(rebase?.lowercased() ?? "false"))
    }
}
