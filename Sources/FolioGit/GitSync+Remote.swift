import Foundation
import FolioSystem
extension GitSync {
    /// Fetches the remote; a remote that cannot be reached or refuses is a stop saying so
    /// (after the commit: the edits are safe here).
    func fetch(_ upstream: Upstream) throws(GitSyncError) {
        let outcome = try repository.run(["fetch", "--quiet", "--no-tags", upstream.remote])
        guard outcome.succeeded else { throw Self.remoteFailure(outcome, doing: "fetch from \(upstream.remote)") }
    }

    /// Pushes HEAD to the remote branch, never forcing: true once pushed, false when the
    /// remote moved meanwhile (fetch and bring in again).
    func push(_ upstream: Upstream) throws(GitSyncError) -> Bool {
        let outcome = try repository.run(["push", "--porcelain", "--no-verify", upstream.remote, "HEAD:" + upstream.mergeRef])
        if outcome.succeeded { return true }
        let said = String(decoding: outcome.output, as: UTF8.self) + outcome.errors
        if said.contains("[rejected]") && (said.contains("fetch first") || said.contains("non-fast-forward")) { return false }
        throw Self.remoteFailure(outcome, doing: "push to \(upstream.name)")
    }

    /// What a failed fetch or push means, said plainly with what to do.
    static func remoteFailure(_ outcome: GitOutcome, doing: String) -> GitSyncError {
        let said = (String(decoding: outcome.output, as: UTF8.self) + outcome.errors)
        // ssh ends its lines with CR LF (one Character in Swift, not "\n").
        let shown = said.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("To ") && $0 != "Done" }.prefix(3).joined(separator: "; ")
        let lower = said.lowercased()
        if ["permission denied", "authentication failed", "could not read username", "terminal prompts disabled", "host key verification failed", "invalid username or password"].contains(where: lower.contains) {
            return GitSyncError(.refused, "the remote refused this device (\(shown)): check its key or credentials (try git \(doing.hasPrefix("push") ? "push" : "fetch") by hand); your edits are committed here and safe")
        }
        if ["could not resolve host", "connection refused", "network is unreachable", "connection timed out", "operation timed out", "no route to host", "could not read from remote repository", "connection closed", "connection reset", "broken pipe", "unable to access", "failed to connect", "timed out during banner exchange"].contains(where: lower.contains) {
            return GitSyncError(.offline, "the remote could not be reached (\(shown)): your edits are committed here and safe; the next sync pushes them")
        }
        if lower.contains("protected branch") || lower.contains("pre-receive hook declined") || lower.contains("[remote rejected]") {
            return GitSyncError(.refused, "the remote refused the push (\(shown)): the branch may be protected; push to another branch or ask its owner; your edits are committed here and safe")
        }
        return GitSyncError(.gitFailed, "git could not \(doing) (\(shown.isEmpty ? "exit \(outcome.status)" : shown)); your edits are committed here and safe")
    }
}
