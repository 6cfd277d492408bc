import Foundation
import FolioSystem
import FolioFormat
import FolioMerge

/// `folio merge-file`: `git merge-file`'s arguments, output and exit status, with
/// Folio's document merge for Markdown with front matter.
enum MergeFileCommand: FolioCommand {
    static let name = "merge-file"
    static let summary = "three-way merge of one file, as git merge-file (documents by field and section)"
    static let about = """
        Merges the changes from BASE to OTHER into CURRENT, as git merge-file does: the
        result replaces CURRENT (or goes to standard output with -p), conflicts are
        marked <<<<<<< / ======= / >>>>>>> (with ||||||| and the base under --diff3),
        labelled with the file names or the -L labels, and the exit status is the
        number of conflicts (at most 127); 255 on an error, 129 on bad usage.
        Markdown documents with YAML front matter (any version has front matter, or
        CURRENT or --path ends in .md or .markdown) are merged field by field and
        section by section: time changed on one side and servings on the other, or
        ingredients added at the end by both, merge cleanly. Anything else, or a
        version that does not parse, is merged line by line exactly as git does.
        --ours, --theirs and --union resolve conflicts to one side or to both.
        --diff-algorithm chooses the line diff as git's option does (default myers).
        As in git, -p is also --stdout, -q (no warnings) also --quiet, and --no-diff3
        undoes an earlier --diff3.
        """
    static let arguments = ArgumentSpec(
        flags: ["-p", "--stdout", "-q", "--quiet", "--diff3", "--no-diff3", "--ours", "--theirs", "--union"],
        options: [("-L", "LABEL"), ("--marker-size", "N"), ("--path", "NAME"), ("--diff-algorithm", "myers|minimal|histogram")], choices: ["--diff-algorithm": ["myers", "minimal", "histogram"]], positionals: 3...3, positionalNames: "CURRENT, BASE and OTHER", synopses: ["CURRENT BASE OTHER"])

    /// git's status for bad usage.
    static let usageStatus: Int32 = 129

    @MainActor static func run(_ arguments: ParsedArguments) async -> Int32 {
        let files = arguments.positionals
        let labels = arguments.options["-L"] ?? []
        guard labels.count <= 3 else {
            Output.error("folio merge-file: too many labels (-L takes at most three)\n\n\(help)")
            return usageStatus
        }
        var options = MergeOptions(
            oursLabel: labels.count > 0 ? labels[0] : files[0], baseLabel: labels.count > 1 ? labels[1] : files[1],
            theirsLabel: labels.count > 2 ? labels[2] : files[2])
        let favors = ["--ours", "--theirs", "--union"].filter(arguments.flags.contains)
        switch favors.last {
        case "--ours": options.favor = .ours
        case "--theirs": options.favor = .theirs
        case "--union": options.favor = .union
        default: break
        }
        options.showBase = arguments.flags.contains("--diff3") && !arguments.flags.contains("--no-diff3")
        if let size = arguments.options["--marker-size"]?.last {
            guard let number = Int(size) else {
                Output.error("folio merge-file: --marker-size needs a number, got '\(size)'")
                return usageStatus
            }
            options.markerSize = number
        }
        // The parser allows only the three algorithms (``arguments``).
        if let name = arguments.options["--diff-algorithm"]?.last, let algorithm = DiffAlgorithm(rawValue: name) {
            options.algorithm = algorithm
        }
        var contents: [[UInt8]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                Output.error("error: Could not stat \(file)")
                return 255
            }
            let bytes = Array(data)
            // git refuses binary files: a NUL byte in the first 8,000.
            if bytes.prefix(8000).contains(0) {
                Output.error("error: Cannot merge binary files: \(file)")
                return 255
            }
            contents.append(bytes)
        }
        let (current, base, other) = (contents[0], contents[1], contents[2])
        let name = arguments.options["--path"]?.last ?? files[0]
        let merged = FileMerge.merge(path: name, base: base, ours: current, theirs: other, options: options)
        if arguments.flags.contains("-p") || arguments.flags.contains("--stdout") {
            FileHandle.standardOutput.write(Data(merged.bytes))
        } else {
            // Atomically, as every write Folio makes: a crash leaves the old file or the new, whole.
            do { try AtomicFile.write(merged.bytes, toFileNamedByUser: files[0]) } catch {
                Output.error("error: Could not write to \(files[0]): \(error.reason)")
                return 255
            }
        }
        return Int32(min(merged.conflicts, 127))
    }
}
