import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio query DIR QUERY [--json]`.
enum QueryCommand: FolioCommand {
    static let name = "query"
    static let summary = "find records: 'kind:recipe tag:pasta time<30m sort:-date'"
    static let about = """
        QUERY is words (full text over titles and bodies, case and accents ignored),
        "quoted phrases", key:value for any front-matter key (kind:, tag:, done:, …),
        comparisons key<value, key<=value, key>value, key>=value on numbers, durations
        (30m) and dates (2026-11-01), sort:key or sort:-key, and limit:N.
        A malformed query exits 2 with a caret under the character where it went wrong.
        """
    static let dir = Positional("DIR", at: 0)
    static let query = Positional("QUERY", at: 1)
    static let arguments = ArgumentSpec(flags: [SharedOptions.json], forms: [[dir, query]], positionalNames: "DIR and QUERY")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let query: Query
        do { query = try Query(parsing: arguments.value(of: Self.query)) } catch {
            Output.error("folio query: \(error)")
            return ExitCode.usage
        }
        let store = try await loadStore(arguments.value(of: dir))
        printRecords(store.state.records(matching: query), of: store, json: arguments.isSet(SharedOptions.json))
        return ExitCode.success
    }
}
