import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio query DIR QUERY… [--json]`.
enum QueryCommand: FolioCommand {
    static let name = "query"
    static let summary = "find records: 'kind:recipe tag:pasta time<30m sort:-date'"
    static let about = """
        QUERY is words (full text over titles and bodies, case and accents ignored),
        "quoted phrases", key:value for any front-matter key (kind:, tag:, done:, …),
        comparisons key<value, key<=value, key>value, key>=value on numbers, durations
        (30m) and dates (2026-11-01, today, today-7d, today+2w), sort:key or
        sort:-key, and limit:N. NOT term (or -term) leaves out what meets the term;
        OR between groups of terms finds what meets either:
          folio query DIR 'tag:pasta OR tag:bread'
          folio query DIR kind:recipe -tag:pasta
          folio query DIR 'kind:todo done:false date<today sort:date'
        QUERY may be one argument or several (joined with spaces); a term that starts
        with - is a term, not an option. A todo's date is its date: or due: field.
        A key no record has is said on stderr with the keys records have; files that
        do not parse are left out, counted in a note on stderr (folio check says why).
        A malformed query exits 2 with a caret under the character where it went wrong.
        """
    static let dir = Positional("DIR", at: 0)
    static let query = Positional("QUERY", at: 1)
    static let arguments: ArgumentSpec = {
        var spec = ArgumentSpec(flags: [SharedOptions.json], forms: [[dir, query]], positionalNames: "DIR and a QUERY")
        spec.takesMorePositionals = true
        return spec
    }()

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let query: Query
        do { query = try Query(parsing: arguments.values(from: Self.query).joined(separator: " ")) } catch {
            Output.error("folio query: \(error)")
            return ExitCode.usage
        }
        let store = try await loadStore(arguments.value(of: dir))
        let found = store.state.records(matching: query)
        printRecords(found, of: store, json: arguments.isSet(SharedOptions.json))
        let known = Set(store.state.queryableKeys)
        for key in query.keys where !known.contains(key) {
            let some = store.state.queryableKeys.filter { !["path", "tags", "title"].contains($0) }
            Output.error("folio query: no record has '\(shown(key))', so '\(shown(key)):' matches nothing; keys records have: \(some.joined(separator: ", "))")
        }
        // Those a query lists (as `invalid`, by their folder's kind) are not left out.
        let listed = Set(found.map(\.path))
        let unread = store.state.invalidRecords.filter { !listed.contains($0.path) }.count
        if unread > 0 {
            Output.error("note: \(unread) file\(unread == 1 ? " does" : "s do") not parse and \(unread == 1 ? "was" : "were") left out: folio check \(Shell.quoted(arguments.value(of: dir))) says why")
        }
        return ExitCode.success
    }
}
