import Foundation
import FolioShared
import FolioSystem

/// A git work tree, as a ``GitSync`` pass drives it: git run in its top folder, away
/// from any terminal, its failures typed.
struct GitRepository: Sendable {
    /// The work tree's top folder.
    let root: String
    /// More for git's environment (``GitSyncOptions/gitEnvironment``).
    let environment: [String: String]

    /// The work tree that holds `folder`.
    init(containing folder: String, environment: [String: String] = [:]) throws(GitSyncError) {
        self.environment = environment
        guard let found = GitProcess.run(["rev-parse", "--show-toplevel"], in: folder, environment: environment) else {
            throw GitSyncError(.notSyncable, "git is not installed (or cannot be started): install it, then sync again")
        }
        guard found.succeeded, !found.text.isEmpty else {
            throw GitSyncError(.notSyncable, "\(folder) is not in a git work tree: run git init (and add a remote), or clone the repository, then sync again")
        }
        root = found.text
    }

    /// git's outcome for `arguments` (`input` on its standard input).
    @discardableResult
    func run(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:]) throws(GitSyncError) -> GitOutcome {
        guard let outcome = GitProcess.run(arguments, in: root, environment: self.environment.merging(environment) { $1 }, input: input) else {
            throw GitSyncError(.gitFailed, "git cannot be started: is it still installed?")
        }
        return outcome
    }

    /// git's output for `arguments`, which must succeed (else a `gitFailed` stop naming
    /// the command and what git said).
    @discardableResult
    func check(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:]) throws(GitSyncError) -> GitOutcome {
        let outcome = try run(arguments, input: input, environment: environment)
        guard outcome.succeeded else { throw Self.failure(arguments, outcome) }
        return outcome
    }

    /// A stop naming the command and what git said.
    static func failure(_ arguments: [String], _ outcome: GitOutcome) -> GitSyncError {
        let said = outcome.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        if said.contains("Please tell me who you are") || said.contains("unable to auto-detect email address") {
            return GitSyncError(.gitFailed, "git does not know who commits here: set it once with git config --global user.name \"Your Name\" and git config --global user.email you@example.com, then sync again")
        }
        return GitSyncError(.gitFailed, "git \(arguments.joined(separator: " ")) failed (exit \(outcome.status)): \(said.isEmpty ? "it said nothing" : said)")
    }

    /// What git is in the middle of (`a merge (MERGE_HEAD)`), or nil.
    func operationInProgress() -> String? {
        GitWorkTree.containing(root)?.operationInProgress()
    }

    /// The path git keeps `name` at (`MERGE_HEAD`, `rebase-merge`), absolute.
    func gitPath(_ name: String) throws(GitSyncError) -> String {
        try check(["rev-parse", "--path-format=absolute", "--git-path", name]).text
    }

    /// Whether the file or folder at `path` (absolute) is there.
    static func exists(_ path: String) -> Bool { (try? Syscall.linkStatus(path)) != nil }

    /// The commit `revision` names, or nil.
    func commit(_ revision: String) throws(GitSyncError) -> String? {
        let outcome = try run(["rev-parse", "--verify", "--quiet", revision + "^{commit}"])
        return outcome.succeeded ? outcome.text : nil
    }

    /// The paths (relative) whose content differs between two commits.
    func changedPaths(from old: String, to new: String) throws(GitSyncError) -> [String] {
        let outcome = try check(["diff", "--name-only", "-z", "--no-renames", old, new])
        return outcome.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
