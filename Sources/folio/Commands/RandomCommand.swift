import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio random DIR [--kind K]`.
enum RandomCommand: FolioCommand {
    static let name = "random"
    static let summary = "print one record at random: folio random DIR --kind quote"
    static let about = """
        Prints one record of KIND (default: quote) chosen at random: a quote as its
        text and author, anything else as its title and path.
        """
    /// Open-ended, as `list --kind`.
    static let kind = Option<String>("--kind", "KIND", help: "the kind to choose from", default: "quote")
    static let dir = Positional("DIR", at: 0)
    static let arguments = ArgumentSpec(flags: [SharedOptions.json], options: [kind.info], forms: [[dir]], positionalNames: "one DIR")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let store = try await loadStore(arguments.value(of: dir))
        guard let kind = kindOption(try arguments.value(of: kind) ?? "quote", in: store, command: name) else { return ExitCode.usage }
        guard let record = store.state.records(of: kind).filter(\.isValid).randomElement() else {
            Output.error("folio random: no \(kind) records in \(arguments.value(of: dir))")
            return ExitCode.problems
        }
        if arguments.isSet(SharedOptions.json) {
            printRecords([record], of: store, json: true)
        } else if kind == .quote, let document = store.state.document(of: record) {
            let quote = Quote(document)
            Output.print(quote.text + (quote.author.map { "\n  — \($0)" } ?? ""))
        } else {
            Output.print("\(record.title)  (\(record.path))")
        }
        return ExitCode.success
    }
}
