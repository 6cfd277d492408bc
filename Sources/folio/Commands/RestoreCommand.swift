import FolioFolder
import FolioShared
import FolioSync
import FolioSystem
import FolioVersions

/// `folio restore DIR [PATH] [--state DIR]` and `folio restore A B [PATH] [--state DIR]`.
enum RestoreCommand: FolioCommand {
    static let name = "restore"
    static let summary = "list or bring back files a sync, fold or resolve set aside"
    static let about = """
        Without PATH, lists the trash (kept 30 days in the state folder), newest first:
        when, from which replica, and the path. With PATH, puts the newest version of
        PATH in the trash back where it was (never over a file that is there now).
        DIR is a single folder: its trash holds the conflict copies folio fold DIR,
        folio watch DIR and folio resolve set aside (and the file content
        folio resolve --keep copy replaced), and the records folio rm and apps
        removed. A and B are a pair of replicas: their
        trash holds what syncs of A and B deleted; the next sync copies a restored file
        to the other replica.
        With two arguments, the second decides: an existing folder makes them the
        replicas A and B; anything else makes them DIR and PATH.
        The state folder is --state DIR, else the default one under
        $XDG_STATE_HOME/folio/ (or ~/.local/state/folio/).
        """
    static let dir = Positional("DIR", at: 0)
    static let pathInFolder = Positional("PATH", at: 1, optional: true)
    static let a = Positional("A", at: 0)
    static let b = Positional("B", at: 1)
    static let pathInPair = Positional("PATH", at: 2, optional: true)
    static let arguments = ArgumentSpec(
        options: [SharedOptions.state.info], forms: [[dir, pathInFolder], [a, b, pathInPair]], positionalNames: "DIR, or A and B, and an optional PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let state = try SharedOptions.stateDirectory(arguments)
        // The rule the help states: a second argument that is an existing folder is B;
        // why it is not one (missing, a file, unreadable) does not matter: then it is a PATH.
        let isPair = arguments.positionalCount == 3 || (arguments.positionalCount == 2 && (try? RootedFolder(arguments.value(of: b))) != nil)
        do {
            let trash: Trash, roots: [Replica: RootedFolder], what: String
            if isPair {
                var options = SyncOptions()
                options.stateDirectory = state
                let engine = try SyncEngine(arguments.value(of: a), arguments.value(of: b), options: options)
                (trash, roots, what) = (Trash(state: try engine.openState()), [.a: engine.folderA, .b: engine.folderB], "these replicas")
            } else {
                var options = FoldOptions()
                options.stateDirectory = state
                // Listing reads only; restoring writes into the folder, so it takes the lock.
                options.dryRun = arguments.valueIfGiven(pathInFolder) == nil
                let folder = try SharedFolder(arguments.value(of: dir), options: options)
                (trash, roots, what) = (Trash(state: folder.stateFolder), [.a: folder.rootFolder, .b: folder.rootFolder], "this folder")
            }
            let items = trash.items()
            guard let path = arguments.valueIfGiven(isPair ? pathInPair : pathInFolder) else {
                if items.isEmpty { Output.error("nothing in the trash of \(what) from the last 30 days") }
                // The replica a pair's file was deleted from; a folder has none.
                for item in items { Output.print("\(item.time)  " + (isPair ? "\(item.replica.rawValue)  " : "") + shown(item.path)) }
                return ExitCode.success
            }
            guard let item = items.first(where: { $0.path == path }), let root = roots[item.replica] else {
                Output.error("folio restore: \(path) is not in the trash of \(what) (folio restore without PATH lists it)")
                return ExitCode.problems
            }
            try trash.restore(item, into: root)
            Output.print("restored \(path) (set aside \(item.time)) into \(root)")
            return ExitCode.success
        } catch {
            Output.error("folio restore: \(error)")
            return ExitCode.of(error)
        }
    }
}
