import FolioShared
import FolioSystem
import FolioVersions
import Foundation

/// One pass that keeps a git work tree in step with its remote branch, as `folio
/// git-sync DIR` runs it: commit what changed (never editors' scratch files, nor a file
/// holding conflict markers, nor what `.gitignore` keeps out), fetch, bring the remote
/// branch's commits in — Markdown records changed on both sides merged by Folio's
/// document merge (field by field, section by section), everything else by git —
/// honouring `pull.rebase`, then push; a push refused because the remote moved meanwhile
/// fetches and brings in again (a few times).
///
/// Never stuck: a real clash keeps the remote's version in the file and commits this
/// device's beside it as a conflict copy (`soup.sync-conflict-…-DEVICE.md`), for `folio
/// resolve` or an app to settle later; the report names it. The pass never leaves the
/// work tree mid-merge or mid-rebase (one a killed pass left is undone by the next),
/// never commits conflict markers, never force-pushes or rewrites a pushed commit, and
/// changes nothing while the user's own git operation is under way. Offline, the edits
/// are committed here and pushed by a later pass. It needs no `folio git-setup` and
/// leaves git's configuration as it is.
public struct GitSync: Sendable {
    /// The folder named (anywhere in the work tree).
    public let folder: String
    /// The options in force.
    public let options: GitSyncOptions
    let repository: GitRepository
    /// Where a pass notes the merge or rebase it has under way, and its lock.
    let state: String

    /// A sync of the work tree that holds `folder`; refused when there is none.
    public init(_ folder: String, options: GitSyncOptions = GitSyncOptions()) throws(GitSyncError) {
        self.folder = folder
        self.options = options
        repository = try GitRepository(containing: folder, environment: options.gitEnvironment)
        state = (options.stateDirectory ?? SharedFolder.defaultState(for: repository.root)) + "/git-sync"
    }

    /// The work tree's top folder.
    public var root: String { repository.root }

    /// Runs one pass. A stop before anything was changed (not syncable, git busy) is
    /// thrown; one after the edits were committed (offline, a refused push) is in the
    /// report's ``GitSyncReport/stopped``, with what was done before it.
    public func run() throws(GitSyncError) -> GitSyncReport {
        let lock: StateLock
        do { lock = try StateLock.acquire(state) } catch {
            throw GitSyncError(.gitFailed, "cannot take the git-sync lock: \(error)")
        }
        return try withExtendedLifetime(lock) { () throws(GitSyncError) -> GitSyncReport in
            try undoOwnOperation()
            if let busy = repository.operationInProgress() {
                throw GitSyncError(.gitBusy, "git is in the middle of \(busy): nothing was changed; finish it (or abort it), then sync again")
            }
            let upstream = try Upstream.of(repository)
            var report = GitSyncReport()
            try commitEdits(&report)
            do throws(GitSyncError) {
                try exchange(with: upstream, &report)
            } catch {
                guard error.kind == .offline || error.kind == .refused else { throw error }
                report.stopped = error
            }
            if report.events.isEmpty && report.stopped == nil { report.record(.inStep(upstream: upstream.name)) }
            return report
        }
    }

    /// Fetches, brings the remote's commits in and pushes, again while the remote moves
    /// under the push.
    private func exchange(with upstream: Upstream, _ report: inout GitSyncReport) throws(GitSyncError) {
        for attempt in 0...options.pushAttempts {
            try fetch(upstream)
            try integrate(upstream, &report)
            let ahead = try aheadCount(of: upstream)
            guard ahead > 0 else { return }
            if try push(upstream) {
                report.record(.pushed(upstream: upstream.name, commits: ahead))
                return
            }
            guard attempt < options.pushAttempts else { break }
            report.record(.remoteMoved)
        }
        throw GitSyncError(.refused, "the remote branch \(upstream.name) kept moving while this device pushed (\(options.pushAttempts + 1) tries): everything is committed here; sync again in a moment")
    }

    /// How many commits HEAD has that the remote branch does not (all of them while
    /// the remote branch does not exist yet).
    private func aheadCount(of upstream: Upstream) throws(GitSyncError) -> Int {
        let range = try repository.commit(upstream.trackingRef) == nil ? "HEAD" : upstream.trackingRef + "..HEAD"
        return Int(try repository.check(["rev-list", "--count", range]).text) ?? 0
    }

    /// The name a conflict copy carries for this device: lower case, letters, digits and
    /// hyphens, as the pair sync's copies carry a folder's name. Never a device part
    /// Syncthing makes (seven capitals or digits): a clash's copy is Folio's, for a person
    /// to settle, and not a sync tool's that `folio watch` would fold back into its file.
    var deviceName: String {
        let name = options.deviceName ?? ProcessInfo.processInfo.hostName
        let kept = String(String(name.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }.map(Character.init)).prefix(16))
        if kept.isEmpty { return "device" }
        // Seven digits would read as a Syncthing device's.
        return kept.count == 7 && kept.allSatisfy(\.isNumber) ? kept + "-git" : kept
    }
}
