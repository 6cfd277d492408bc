import FolioFormat
import FolioStore
import FolioSystem

/// `folio check DIR [--state DIR]`: parse every Markdown file and report every problem,
/// conflict copies included.
enum CheckCommand: FolioCommand {
    static let name = "check"
    static let summary = "check every Markdown file in a folder, and list its conflict copies"
    static let about = """
        Parses every Markdown file under DIR (skipping .git, the sync tools' files and
        editor scratch files) and prints each problem as FILE:LINE:COL: error: MESSAGE
        with the offending line. Each conflict copy is a problem too, reported as
          DIR/COPY: error: conflict copy of FILE: can be folded (base: history)
        with whether folio fold can fold it (see folio conflicts; the history of
        versions is read from --state DIR, else the folder's default state).
        Exits 1 when there are problems, 0 when there are none.
        """
    static let dir = Positional("DIR", at: 0)
    static let arguments = ArgumentSpec(options: [SharedOptions.state.info], forms: [[dir]], positionalNames: "one DIR")

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let root = arguments.value(of: dir)
        let state = try SharedOptions.stateDirectory(arguments)
        let report: FolderCheck.Report
        do { report = try FolderCheck.run(root: root) } catch {
            Output.error(FileProblem.line(error))
            return ExitCode.of(error)
        }
        var problems = report.problems
        let displayRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
        do {
            problems += try ConflictStatus.all(in: root, state: state, files: report.files).map { status in
                "\(displayRoot)/\(status.copy): error: conflict copy of \(status.file): \(status.sentence)"
            }
        } catch {
            problems.append("\(displayRoot): error: cannot tell which conflict copies can be folded: \(error)")
        }
        for problem in problems { Output.print(problem) }
        let count = problems.count
        Output.error("checked \(report.fileCount) file\(report.fileCount == 1 ? "" : "s") in \(root): \(count == 0 ? "no problems" : "\(count) problem\(count == 1 ? "" : "s")")")
        return count == 0 ? ExitCode.success : ExitCode.problems
    }
}
