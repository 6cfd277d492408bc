import Dispatch
import Foundation
import Folio
import FolioGit
import FolioStore
import FolioSystem
import FolioSync
import FolioWatch

/// `folio watch DIR [--json] [--poll DURATION] [--quiet DURATION] …`.
enum WatchCommand: FolioCommand {
    static let name = "watch"
    static let summary = "follow a folder and print each change as it lands"
    static let about = """
        Loads DIR, then follows it: every edit made by any editor or sync tool is read
        after a quiet period (default 50 ms) and printed as it lands, e.g.
          updated recipes/carbonara.md: time 15m → 20m
          invalid recipes/soup.md:3:7: unterminated quote
        It also folds the conflict copies Syncthing, Dropbox or Nextcloud leave in DIR
        back into their files (as folio fold DIR does, once the sync tool has left them
        alone for 2 s), printing `folded COPY into FILE` or `conflict kept FILE: …` (or
        `cannot fold COPY into FILE yet: …` on a full disk, tried again every --retry-every, default 5s), and
        keeps the history of versions the folds take their bases from (in --state DIR,
        else $XDG_STATE_HOME/folio/; one folio at a time uses it).
        --json prints one JSON object per line. Linux uses inotify and macOS FSEvents;
        --poll DURATION (e.g. 2s) stats the folder that often instead (network file
        systems). Every duration is written with its unit: 500ms, 2s, 5m, 1h.
        Everything is read again every hour in case a notification was missed.
        With two folders, keeps the replicas A and B in step instead: a sync (as
        folio sync A B) runs after each burst of edits on either side, and every hour;
        a replica that disappears (a USB stick pulled out) pauses it until it is back.
        Each sync prints what it did as folio sync does; with --json, one JSON object
        per line and event: {"event":"copied","path":…}, and likewise deleted, merged,
        moved (from, to), folded (copy, path), conflict kept (copy, path, replica,
        reason), conflict (path, copy), changed during sync and skipped.
        With --git-sync (one folder in a git work tree), it also keeps the work tree in
        step with its remote branch as folio git-sync does: a pass --commit-after the
        last edit (default 2s), and one every --fetch-every (default 1m) to bring in
        others' commits; an unreachable remote is said once (the edits stay committed
        here) and tried less often until it is back, and nothing is done while your own
        git operation is under way; a clash's copy carries --device NAME (default: the
        host's name).
        Ctrl-C (SIGINT) or SIGTERM stops it; the exit status is then 0.
        """
    static let dir = Positional("DIR", at: 0)
    static let a = Positional("A", at: 0)
    static let b = Positional("B", at: 1)
    static let gitSync = Flag("--git-sync", help: "keep the git work tree in step with its remote branch (as folio git-sync), one folder only")
    static let commitAfter = Option<Duration>(
        "--commit-after", range: 0...3_600, upTo: "an hour",
        help: "with --git-sync, how long after the last edit a pass commits and pushes", default: "2s")
    static let fetchEvery = Option<Duration>(
        "--fetch-every", range: 1...86_400, upTo: "a day",
        help: "with --git-sync, how often a pass fetches and brings in others' commits", default: "1m")
    static let retryEvery = Option<Duration>(
        "--retry-every", range: 0.1...3_600, upTo: "an hour",
        help: "how soon a fold a failed write stopped (a full disk) is tried again", default: "5s")
    static let device = Option<String>("--device", "NAME", help: "with --git-sync, the name a clash's conflict copy carries (default: the host's name)")
    static let arguments = ArgumentSpec(
        flags: [SharedOptions.json, gitSync], options: WatchTiming.options + [SharedOptions.state.info, commitAfter.info, fetchEvery.info, retryEvery.info, device.info],
        forms: [[dir], [a, b]], positionalNames: "DIR, or replicas A and B")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        var options = WatchOptions()
        try WatchTiming.apply(arguments, to: &options)
        let root = arguments.value(of: dir)
        let json = arguments.isSet(SharedOptions.json)
        let state = try SharedOptions.stateDirectory(arguments)
        let following = arguments.isSet(gitSync)
        let (commitDelay, fetchInterval) = (try arguments.value(of: commitAfter) ?? .seconds(2), try arguments.value(of: fetchEvery) ?? .seconds(60))
        if arguments.positionalCount == 2 {
            guard !following else { throw OptionValueError(description: "--git-sync follows one folder (folio watch DIR --git-sync), not a pair of replicas", showsHelp: true) }
            return await watchPair(arguments, state: state, options: options, json: json)
        }
        // The work tree and its remote branch are checked before anything is loaded: a
        // folder that cannot be synced is said at once (exit 2).
        var gitSyncOptions = GitSyncOptions()
        gitSyncOptions.stateDirectory = state
        gitSyncOptions.deviceName = try arguments.value(of: device)
        var gitSyncing: GitSync?
        if following {
            do { gitSyncing = try GitSync(root, options: gitSyncOptions) } catch {
                Output.error("folio watch: \(error)")
                return GitSyncCommand.exitStatus(of: error)
            }
        }
        var foldOptions = FoldOptions()
        foldOptions.stateDirectory = state
        if let retry = try arguments.value(of: retryEvery) { foldOptions.writeRetry = retry }
        let retry = foldOptions.writeRetry
        // The history is opened while the store loads the folder; the load reads every
        // file once, for the store, the history's first record and the report of changes.
        // `watch` never searches by text: its store builds no full-text index (a third of the load).
        let opening = Task.detached {
            Result { () throws(SyncError) -> FoldingFollower in
                FoldingFollower(folder: try SharedFolder(root, options: foldOptions)) { fold in
                    for line in FoldCommand.events(fold, json: json, folder: root, retryingEvery: retry) { Output.print(line) }
                }
            }
        }
        // A folder that is missing is bad usage (exit 2), as for every command that reads one.
        var loaded: (store: Store, reads: [FileRead])
        do { loaded = try await loadStore(root, keepingReads: true, indexingText: false) } catch {
            _ = await opening.value
            throw error
        }
        let store = loaded.store
        let folding: FoldingFollower
        switch await opening.value {
        case .success(let follower): folding = follower
        case .failure(let error):
            Output.error("folio watch: \(error)")
            return ExitCode.of(error)
        }
        // Taken by the history's queue while the change report cuts out each record's
        // front matter here (parsed only when the record changes).
        folding.start(alreadyRead: loaded.reads)
        var report = ChangeReport(store: store, reads: loaded.reads)
        // The bytes are held no longer than the record needs them (not for the whole watch).
        loaded.reads = []
        // What the folder holds is in the history's hands before "watching" (logged next,
        // before any change): an edit made after it has a base. The watches are set up
        // then, just before "watching".
        await folding.ready()
        let watcher = FolderWatcher(store: store, options: options) { Output.error("folio watch: \($0)") }
        // One read of each change: the history takes the files the watcher read.
        watcher.observeReads { snapshot in folding.offer(snapshot.reads) }
        let changes = store.changes()
        do { try watcher.start() } catch {
            folding.stop()
            Output.error("folio watch: " + cannotWatch(root, error))
            return ExitCode.of(error)
        }
        // Started once the folder is watched: what a pass brings in is read as an arrival.
        let git = gitSyncing.map { sync in
            GitSyncFollower(sync, commitAfter: commitDelay, fetchEvery: fetchInterval) { outcome in
                switch outcome {
                case .success(let report):
                    for event in report.events {
                        if json { Output.printJSON(event.json) } else { Output.print(event.sentence) }
                    }
                    if let stopped = report.stopped { Output.error("folio watch: git-sync: \(stopped)") }
                case .failure(let error):
                    Output.error("folio watch: git-sync: \(error)")
                }
            }
        }
        let stop = StopSignals {
            // A git-sync pass under way finishes first: git is never left mid-step.
            git?.stop()
            folding.stop()
            watcher.stop()
        }
        git?.start()
        Output.error("watching \(root): \(store.state.count) records (Ctrl-C stops)")
        for await change in changes {
            for line in report.lines(for: change, in: store, json: json) { if json { Output.printJSON(line) } else { Output.print(line) } }
            folding.changed(change.paths)
            git?.changed()
        }
        // The signal handlers live as long as the watch (a bare `_ = stop` would not keep them).
        return withExtendedLifetime(stop) { ExitCode.success }
    }
}

extension WatchCommand {
    /// `folio watch A B`: syncs after each burst of edits until stopped.
    /// Why `root` cannot be watched, and what to do: the kernel's inotify limits are
    /// named (its errors would say "no space left" or "too many open files").
    static func cannotWatch(_ root: String, _ error: SystemError) -> String {
        #if canImport(Glibc)
        if error.operation == .watch, [Inotify.watchLimitReached, Inotify.instanceLimitReached].contains(error.code) {
            return "cannot watch \(root): the inotify limits (fs.inotify.max_user_watches, fs.inotify.max_user_instances) are reached. "
                + "Raise them (sudo sysctl fs.inotify.max_user_instances=1024 fs.inotify.max_user_watches=524288), or watch with --poll 2s"
        }
        #endif
        return FileProblem.line(error)
    }

    /// A failed sync of `watch A B`, with what to do: the pair is tried again meanwhile.
    static func failure(_ error: SyncError, a: String, b: String) -> String {
        switch error.kind {
        case .replicaMissing:
            return "\(error) — waiting for it to come back"
        case .massDeletion, .replicaReplaced:
            // watch takes no --allow-mass-delete: one sync that does, and watching goes on.
            let flag = error.goAhead?.flag ?? "--allow-mass-delete"
            let once = "run folio sync \(Shell.quoted(a)) \(Shell.quoted(b)) \(flag) once (watching goes on)"
            return error.problem + " " + (error.goAhead?.condition ?? "If so") + ", " + once + ". Nothing is synced until then."
        default:
            let sentence = error.description.hasSuffix(".") ? error.description : error.description + "."
            return sentence + " Nothing is synced until this is fixed; tried again every few seconds."
        }
    }

    @MainActor static func watchPair(_ arguments: ParsedArguments, state: String?, options: WatchOptions, json: Bool) async -> Int32 {
        var syncOptions = SyncOptions()
        syncOptions.stateDirectory = state
        let engine: SyncEngine
        do { engine = try SyncEngine(arguments.value(of: a), arguments.value(of: b), options: syncOptions) } catch {
            Output.error("folio watch: \(error)")
            return ExitCode.of(error)
        }
        let (a, b) = (arguments.value(of: Self.a), arguments.value(of: Self.b))
        let failures = SaidOnce()
        let watcher = PairWatcher(engine: engine, options: options) { outcome in
            if case .success = outcome { failures.reset() }
            switch outcome {
            case .success(let report) where json:
                // One object per event, as folio watch DIR --json prints them; nothing when nothing happened.
                for line in report.jsonEvents { Output.printJSON(line) }
            case .success(let report):
                report.printText(dryRun: false, roots: PerReplica(a: a, b: b))
            case .failure(let error):
                // Tried again every few seconds: said when it starts or changes.
                if failures.isNew(error.description) { Output.error("folio watch: " + failure(error, a: a, b: b)) }
            }
        }
        let stop = StopSignals { watcher.stop() }
        Output.error("keeping \(engine.rootA) and \(engine.rootB) in step (Ctrl-C stops)")
        watcher.start()
        // Runs until a signal ends the process. Sleep throws only when cancelled, and nothing
        // cancels this task: the loop goes on. Each pass holds the signal handlers (no
        // async withExtendedLifetime here), so they live as long as the loop.
        while true {
            withExtendedLifetime(stop) {}
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}
