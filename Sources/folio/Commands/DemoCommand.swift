import Foundation
import FolioFormat
import FolioSystem

/// `folio demo`: the main job, start to end, on a copy of the bundled collection.
enum DemoCommand: FolioCommand {
    static let name = "demo"
    static let summary = "run Folio on a copy of the bundled collection and show what it does"
    static let about = """
        Copies the bundled Fixtures/ collection to a temporary folder, checks every file,
        shows a recipe's front matter as JSON, edits one field in place and shows that
        only that line changed. The copy is removed afterwards; Fixtures/ is not touched.
        """
    static let arguments = ArgumentSpec(positionalNames: "no arguments")

    static func run(_ arguments: ParsedArguments) async -> Int32 {
        do {
            return try await Demo().run()
        } catch {
            Output.error("folio demo: \(error)")
            return ExitCode.problems
        }
    }
}
