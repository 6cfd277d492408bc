import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem
import Folio

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
        let folder = arguments.value(of: dir), path = arguments.value(of: Self.path)
        let store = try await loadStore(folder)
        let status = exitStatus(reporting: await store.dispatch(.removeRecord(path: path)).errors)
        if status == ExitCode.success {
            Output.print("moved \(shown(path)) to the trash in \(shown(FolderTrash(folder: folder).state))/trash; folio restore \(Shell.quoted(folder)) \(Shell.quoted(path)) brings it back")
        }
        return status
    }
}
