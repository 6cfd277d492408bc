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
    static let dir = Positional("DIR", at: 0)
    static let path = Positional("PATH", at: 1)
    static let arguments = ArgumentSpec(forms: [[dir, path]], positionalNames: "DIR and PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.value(of: dir))
        let path = arguments.value(of: Self.path)
        guard let record = store.state[path], record.kind == .todo else {
            Output.error("\(path): error: no todo at this path in \(arguments.value(of: dir)) (folio list \(Shell.quoted(arguments.value(of: dir))) --kind todo lists them)")
            return ExitCode.problems
        }
        if record.done == true {
            Output.error("\(path): already done")
            return ExitCode.success
        }
        return exitStatus(reporting: await store.dispatch(.toggleDone(path: path)).errors)
    }
}
