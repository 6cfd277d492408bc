import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio rm DIR PATH`.
enum RemoveCommand: FolioCommand {
    static let name = "rm"
    static let summary = "move a record's file to the folder's trash"
    static let about = """
        Moves the record at PATH (relative to DIR) to the folder's trash, unless it changed
        on disk since it was read; folio restore DIR PATH brings it back.
        """
    static let arguments = ArgumentSpec(positionals: 2...2, positionalNames: "DIR and PATH", synopses: ["DIR PATH"])

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.positionals[0])
        return exitStatus(reporting: await store.dispatch(.removeRecord(path: arguments.positionals[1])).errors)
    }
}
