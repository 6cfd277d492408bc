import FolioSync

/// `folio restore A B [PATH] [--state DIR]`.
enum RestoreCommand: FolioCommand {
    static let name = "restore"
    static let summary = "list or bring back files a sync deleted"
    static let help = """
        usage: folio restore A B [PATH] [--state DIR]

        Without PATH, lists what syncs of A and B deleted (kept 30 days in the state
        folder), newest first: when, from which replica, and the path. With PATH, puts
        the newest deleted version of PATH back into the replica it was deleted from
        (never over a file that is there now); the next sync copies it to the other.
        """
    static let arguments = ArgumentSpec(options: ["--state"], positionals: 2...3, positionalNames: "A, B and an optional PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async -> Int32 {
        var options = SyncOptions()
        options.stateDirectory = arguments.options["--state"]?.last
        do {
            let engine = try SyncEngine(arguments.positionals[0], arguments.positionals[1], options: options)
            let trash = Trash(state: engine.state)
            let items = trash.items()
            guard arguments.positionals.count == 3 else {
                if items.isEmpty { Output.error("nothing deleted by a sync of these replicas in the last 30 days") }
                for item in items { Output.print("\(item.time)  \(item.replica.rawValue)  \(item.path)") }
                return ExitCode.success
            }
            let path = arguments.positionals[2]
            guard let item = items.first(where: { $0.path == path }) else {
                Output.error("folio restore: \(path) is not in the trash of these replicas")
                return ExitCode.problems
            }
            try trash.restore(item, into: item.replica == .a ? engine.rootA : engine.rootB)
            Output.print("restored \(path) (deleted \(item.time)) into \(item.replica == .a ? engine.rootA : engine.rootB)")
            return ExitCode.success
        } catch {
            Output.error("folio restore: \(error)")
            return ExitCode.problems
        }
    }
}
