import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio done DIR PATH [--undo]`.
enum DoneCommand: FolioCommand {
    static let name = "done"
    static let summary = "tick a todo off (or, with --undo, on again)"
    static let about = """
        Sets 'done: true' in the todo at PATH (relative to DIR), changing that line only,
        and says so (done todos/order-flour.md: Order flour). With --undo, sets
        'done: false' (not done todos/order-flour.md: Order flour).
        """
    static let dir = Positional("DIR", at: 0)
    static let path = Positional("PATH", at: 1)
    static let undo = Flag("--undo", help: "un-tick it: set 'done: false'")
    static let arguments = ArgumentSpec(flags: [undo], forms: [[dir, path]], positionalNames: "DIR and PATH")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.value(of: dir))
        let path = arguments.value(of: Self.path)
        guard let record = store.state[path], record.kind == .todo else {
            Output.error("\(path): error: no todo at this path in \(arguments.value(of: dir)) (folio list \(Shell.quoted(arguments.value(of: dir))) --kind todo lists them)")
            return ExitCode.problems
        }
        let undoing = arguments.isSet(undo)
        if (record.done == true) != undoing {
            Output.error("\(shown(path)): already \(undoing ? "not done" : "done")")
            return ExitCode.success
        }
        let status = exitStatus(reporting: await store.dispatch(.toggleDone(path: path)).errors)
        if status == ExitCode.success { Output.print("\(undoing ? "not done" : "done") \(shown(path)): \(shown(record.title))") }
        return status
    }
}
