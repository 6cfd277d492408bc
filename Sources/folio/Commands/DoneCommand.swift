import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio done DIR PATH`.
enum DoneCommand: FolioCommand {
    static let name = "done"
    static let summary = "tick a todo off"
    static let about = """
        Sets 'done: true' in the todo at PATH (relative to DIR), changing that line only.
        """
    static let arguments = ArgumentSpec(positionals: 2...2, positionalNames: "DIR and PATH", synopses: ["DIR PATH"])

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.positionals[0])
        let path = arguments.positionals[1]
        guard let record = store.state[path], record.kind == .todo else {
            Output.error("\(path): error: no todo at this path in \(arguments.positionals[0]) (folio list \(Shell.quoted(arguments.positionals[0])) --kind todo lists them)")
            return ExitCode.problems
        }
        if record.done == true {
            Output.error("\(path): already done")
            return ExitCode.success
        }
        return exitStatus(reporting: await store.dispatch(.toggleDone(path: path)).errors)
    }
}
