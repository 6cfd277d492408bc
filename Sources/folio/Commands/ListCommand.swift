import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio list DIR [--kind K] [--json]`.
enum ListCommand: FolioCommand {
    static let name = "list"
    static let summary = "list the records of a folder"
    static let about = """
        Lists every Markdown file under DIR in path order: its path, kind and title,
        files that do not parse included (with their error). A conflict copy (of
        Syncthing, Dropbox, Nextcloud or folio sync) ends with
        '  (conflict copy of FILE)'. --json prints one JSON array of objects with path,
        kind, title, fields and, for files that do not parse, error; for conflict
        copies, conflictOf (the file). Exits 1 when a file does not parse.
        """
    /// Open-ended: a folder may hold kinds of its own (`kind: book`), so not an enum.
    static let kind = Option<String>("--kind", "KIND", help: "only the records of this kind (recipe, todo, workout, quote, note, or one the folder holds)")
    static let dir = Positional("DIR", at: 0)
    static let arguments = ArgumentSpec(flags: [SharedOptions.json], options: [kind.info], forms: [[dir]], positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.value(of: dir))
        var records = store.state.records.values.sorted { $0.path < $1.path }
        if let text = try arguments.value(of: kind) {
            guard let kind = kindOption(text, in: store, command: name) else { return ExitCode.usage }
            records = records.filter { $0.kind == kind }
        }
        printRecords(records, of: store, json: arguments.isSet(SharedOptions.json))
        return records.contains { !$0.isValid } ? ExitCode.problems : ExitCode.success
    }
}
