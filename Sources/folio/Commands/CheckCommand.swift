import FolioFormat
import FolioSystem

/// `folio check DIR`: parse every Markdown file and report every problem.
enum CheckCommand: FolioCommand {
    static let name = "check"
    static let summary = "check every Markdown file in a folder"
    static let help = """
        usage: folio check DIR

        Parses every Markdown file under DIR (skipping .git, the sync tools' files and
        editor scratch files) and prints each problem as FILE:LINE:COL: error: MESSAGE
        with the offending line. Exits 1 when there are problems, 0 when there are none.
        """
    static let arguments = ArgumentSpec(positionals: 1...1, positionalNames: "one DIR")

    static func run(_ arguments: ParsedArguments) async -> Int32 {
        let root = arguments.positionals[0]
        let report: FolderCheck.Report
        do { report = try FolderCheck.run(root: root) } catch {
            Output.error(error.description)
            return ExitCode.problems
        }
        for problem in report.problems { Output.print(problem) }
        let count = report.problems.count
        Output.error("checked \(report.fileCount) file\(report.fileCount == 1 ? "" : "s") in \(root): \(count == 0 ? "no problems" : "\(count) problem\(count == 1 ? "" : "s")")")
        return count == 0 ? ExitCode.success : ExitCode.problems
    }
}
