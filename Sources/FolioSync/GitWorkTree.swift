import Foundation
import FolioSystem

/// The git work tree a shared folder lies in, as far as Folio must respect it: while git
/// is in the middle of an operation (a merge, a rebase, a cherry-pick, a revert, or
/// while it holds `index.lock`) nothing may be written into the work tree, and what git
/// writes (a checkout, a stash) is an arrival, never an edit.
package struct GitWorkTree: Sendable {
    /// The files whose presence means git is in the middle of an operation, with what
    /// to call it; found through `git rev-parse --git-path` (linked worktrees included).
    let markers: [(path: String, operation: String)]
    /// The folder, absolute.
    let root: String

    static let operations: [(name: String, operation: String)] = [
        ("MERGE_HEAD", "a merge"), ("CHERRY_PICK_HEAD", "a cherry-pick"), ("REVERT_HEAD", "a revert"),
        ("rebase-merge", "a rebase"), ("rebase-apply", "a rebase (or git am)"), ("index.lock", "an operation holding index.lock"),
    ]

    /// The work tree `folder` (absolute) lies in; nil when it is in none, or git is not installed.
    package static func containing(_ folder: String) -> GitWorkTree? {
        var arguments = ["-C", folder, "rev-parse", "--is-inside-work-tree"]
        for (name, _) in operations { arguments += ["--git-path", name] }
        guard let output = GitProcess.output(arguments) else { return nil }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == operations.count + 1, lines[0] == "true" else { return nil }
        let markers = zip(lines.dropFirst(), operations).map { path, entry in
            (path: path.hasPrefix("/") ? path : folder + "/" + path, operation: entry.operation)
        }
        return GitWorkTree(markers: markers, root: folder)
    }

    /// What git is in the middle of (`a merge (MERGE_HEAD)`), or nil when nothing.
    package func operationInProgress() -> String? {
        // A probe: a marker not there (or not to be looked at) is no operation in progress.
        for (path, operation) in markers where (try? Syscall.linkStatus(path)) != nil {
            return "\(operation) (\(path.split(separator: "/").last ?? ""))"
        }
        return nil
    }

    /// Whether the file at `path` (relative) holds what HEAD's commit holds there: what a
    /// checkout, a reset or a stash writes.
    package func matchesHead(_ path: String) -> Bool {
        // `HASH TYPE BLOB\tPATH` for a file HEAD holds; nothing for one it does not (untracked).
        guard let entry = GitProcess.output(["-C", root, "ls-tree", "HEAD", "--", ":(literal)" + path]),
              let blob = String(decoding: entry, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst(2).first,
              let worked = GitProcess.output(["-C", root, "hash-object", "--", path])
        else { return false }
        return String(decoding: worked, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == blob
    }

    /// The merge base of the commits that hold `file` and `copy` (hashes of their
    /// contents) at `path`, and that version's bytes: the base git's own history proves.
    /// Nil when either version was never committed, or they share no commit.
    package func mergeBase(path: String, file: SHA256.Digest, copy: SHA256.Digest) -> [UInt8]? {
        guard let log = GitProcess.output(["-C", root, "log", "--all", "--format=%H", "-n", "200", "--", ":(literal)" + path]) else { return nil }
        var holding: [SHA256.Digest: String] = [:]
        for commit in String(decoding: log, as: UTF8.self).split(separator: "\n") {
            guard let bytes = GitProcess.output(["-C", root, "show", "\(commit):./" + path]) else { continue }
            let hash = SHA256.hash(bytes)
            if (hash == file || hash == copy) && holding[hash] == nil { holding[hash] = String(commit) }
            if holding.count == 2 { break }
        }
        guard let one = holding[file], let other = holding[copy],
              let base = GitProcess.output(["-C", root, "merge-base", one, other]).map({ String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) })
        else { return nil }
        return GitProcess.output(["-C", root, "show", "\(base):./" + path])
    }
}
