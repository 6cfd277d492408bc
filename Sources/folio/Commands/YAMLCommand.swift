import FolioFormat
import FolioSystem

/// `folio yaml FILE`: a Markdown file's front matter, or a whole YAML file, as JSON.
enum YAMLCommand: FolioCommand {
    static let name = "yaml"
    static let summary = "print a file's front matter (or a .yaml file) as JSON"
    static let about = """
        Prints the front matter of a Markdown file, or the whole of a .yaml/.yml file,
        as JSON on standard output: objects keep their key order; numbers, booleans and
        null are typed by the YAML 1.2 core schema; dates are strings. A file Folio
        refuses prints FILE:LINE:COL: error: MESSAGE on standard error and exits 1.
        """
    static let file = Positional("FILE", at: 0)
    static let arguments = ArgumentSpec(forms: [[file]], positionalNames: "one FILE")

    static func run(_ arguments: ParsedArguments) async -> Int32 {
        let path = arguments.value(of: file)
        let bytes: [UInt8]
        do { bytes = try FileReading.contents(ofFileNamedByUser: path) } catch {
            Output.error(FileProblem.line(error))
            return ExitCode.of(error)
        }
        do {
            let value: YAMLValue
            if path.hasSuffix(".yaml") || path.hasSuffix(".yml") {
                value = try YAML.parse(bytes: bytes, path: path).value
            } else {
                value = .mapping(try Document(bytes: bytes, path: path).fields)
            }
            Output.printJSON(value.json())
            return ExitCode.success
        } catch {
            Output.error(error.rendered)
            return ExitCode.problems
        }
    }
}
