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
    static let dir = Positional("DIR", at: 0)
    static let path = Positional("PATH", at: 1)
    static let arguments = ArgumentSpec(forms: [[dir, path]], positionalNames: "DIR and PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.value(of: dir))
        return exitStatus(reporting: await store.dispatch(.removeRecord(path: arguments.value(of: Self.path))).errors)
    }
}
