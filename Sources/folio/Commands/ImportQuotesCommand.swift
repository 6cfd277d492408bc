import Foundation
import FolioFormat
import FolioModel
import FolioStore
import FolioSystem

/// `folio import-quotes DIR FILE`.
enum ImportQuotesCommand: FolioCommand {
    static let name = "import-quotes"
    static let summary = "import quotes written between #- and -# into quotes/"
    static let about = """
        Reads FILE, in which each quote stands between '#-' and '-#' (line breaks inside
        a quote become spaces; empty quotes are skipped), and writes one file per quote
        in DIR/quotes/. Prints how many it wrote. A quote never closed with '-#' is not
        imported: its line and column are printed and the exit status is 1.
        """
    static let dir = Positional("DIR", at: 0)
    static let file = Positional("FILE", at: 1)
    static let arguments = ArgumentSpec(forms: [[dir, file]], positionalNames: "DIR and FILE")

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let file = arguments.value(of: Self.file)
        let bytes: [UInt8]
        do { bytes = try FileReading.contents(ofFileNamedByUser: file) } catch {
            Output.error("\(FileProblem.line(error))\nfolio import-quotes: cannot read the quotes file")
            return ExitCode.of(error)
        }
        guard let text = UTF8Validation.string(bytes) else {
            Output.error("\(file): error: not UTF-8 text; save it as UTF-8")
            return ExitCode.problems
        }
        let (quotes, unclosedAt) = QuoteImport.read(text)
        if let (line, column) = unclosedAt {
            Output.error("\(file):\(line):\(column): warning: this quote is never closed, so it was not imported: add '-#' at its end")
        }
        guard !quotes.isEmpty else {
            Output.error("\(file): error: no quotes found in \(file) (each quote goes between '#-' and '-#')")
            return ExitCode.problems
        }
        // A new library folder is made on first import; when it cannot be, loading it
        // next says why (missing, or not readable).
        try? FileManager.default.createDirectory(atPath: arguments.value(of: dir), withIntermediateDirectories: true)
        let store = try await loadStore(arguments.value(of: dir))
        var errors: [StoreError] = []
        for quote in quotes { errors += await store.dispatch(.addQuote(quote)).errors }
        Output.print("imported \(quotes.count - errors.count) quote\(quotes.count == 1 ? "" : "s") into \(arguments.value(of: dir))/quotes/")
        let status = exitStatus(reporting: errors)
        return unclosedAt == nil ? status : max(status, ExitCode.problems)
    }
}
