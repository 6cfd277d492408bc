import Foundation
import Folio
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// Loads the store of a folder for a command, reporting what cannot be read; a folder
/// that is not there ends the command with 2, one that cannot be read with 3.
@MainActor
func loadStore(_ root: String) async throws(CommandExit) -> Store {
    try await loadStore(root, keepingReads: false).store
}

/// ``loadStore(_:)``, also giving every record file as the load read it (with
/// `keepingReads`), for `watch`'s history and change report: the folder is read once;
/// without `indexingText`, for a command that never searches, no full-text index.
@MainActor
func loadStore(_ root: String, keepingReads: Bool, indexingText: Bool = true) async throws(CommandExit) -> (store: Store, reads: [FileRead]) {
    do {
        // A record removed goes to the folder's trash, where `folio restore DIR` finds it.
        let loaded = try await Store.loadKeepingReads(root, removedFiles: FolderTrash(folder: root), keepingReads: keepingReads, indexingText: indexingText)
        for problem in loaded.store.loadProblems { Output.error(FileProblem.line(problem)) }
        return loaded
    } catch {
        Output.error(FileProblem.line(error))
        throw CommandExit(status: ExitCode.of(error))
    }
}

/// Prints the store's errors and gives the exit status they mean: the gravest of
/// theirs (3 when the disk refused a write, else 1), 0 when there are none.
func exitStatus(reporting errors: [StoreError]) -> Int32 {
    for error in errors { Output.error(error.description) }
    return errors.map(ExitCode.of).max() ?? ExitCode.success
}

/// Prints records as aligned columns, or with `--json` as one JSON array; a conflict
/// copy is marked with the file it is a version of (`  (conflict copy of r.md)`, or
/// `"conflictOf": "r.md"`).
@MainActor
func printRecords(_ records: [Record], of store: Store, json: Bool) {
    // The folder's copy names, read from its settings once for all the records.
    let copyNames = store.state.conflictCopyNames
    if json {
        let values = records.map { record -> YAMLValue in
            var object: YAMLMapping = [
                "path": .string(record.path), "kind": .string(record.kind.rawValue), "title": .string(record.title),
                "fields": .mapping(store.state.fields(of: record)),
            ]
            if let error = record.error { object["error"] = .string("\(error.location): \(error.message)") }
            if let original = copyNames.originalOfAnyCopy(record.path) { object["conflictOf"] = .string(original) }
            return .mapping(object)
        }
        Output.printJSON(YAMLValue.sequence(values).json())
        return
    }
    let rows = records.map { record -> [String] in
        [shown(record.path), record.isValid ? record.kind.rawValue : "invalid", record.error.map { shown("\($0.location): \($0.message)") } ?? title(of: record, in: store)]
    }
    let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
    for (row, record) in zip(rows, records) {
        Output.print(row[0].padding(toLength: widths[0] + 2, withPad: " ", startingAt: 0)
            + row[1].padding(toLength: widths[1] + 2, withPad: " ", startingAt: 0) + row[2]
            + (copyNames.originalOfAnyCopy(record.path).map { "  (conflict copy of \(shown($0)))" } ?? ""))
    }
}

/// A record's title as a list shows it: a todo's with its box and its date
/// (`[x] Order flour (2026-12-10)`).
@MainActor func title(of record: Record, in store: Store) -> String {
    guard record.kind == .todo, record.isValid else { return shown(record.title) }
    let date = store.state.todo(at: record.path)?.date
    return (record.done == true ? "[x] " : "[ ] ") + shown(record.title) + (date.map { " (\(shown($0)))" } ?? "")
}

/// The kind `--kind` names, when Folio knows it or the folder holds records of it;
/// otherwise nil, with an error listing the kinds there are.
@MainActor func kindOption(_ text: String, in store: Store, command: String) -> Kind? {
    let kinds = Set([Kind.recipe, .todo, .workout, .quote, .note]).union(store.state.records.values.map(\.kind))
        .union(store.state.kindRules.declared.schemas.keys)
    // The kind's folder names it too: `todos`, `_recipes`.
    var name = text.hasPrefix("_") ? String(text.dropFirst()) : text
    if !kinds.contains(Kind(rawValue: name)) && name.hasSuffix("s") { name.removeLast() }
    let kind = Kind(rawValue: name)
    guard kinds.contains(kind) else {
        Output.error("folio \(command): unknown kind '\(text)': the kinds are \(kinds.sorted().map(\.rawValue).joined(separator: ", "))")
        return nil
    }
    return kind
}
